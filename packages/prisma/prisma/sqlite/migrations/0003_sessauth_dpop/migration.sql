-- sessauth (@sessauth/prisma), step 0005-session-dpop (RFC 9449 DPoP): the thumbprint of the key a
-- session is bound to. Nullable: existing rows read as unbound.

alter table "sessauth_session" add column "dpop_jkt" varchar(64);
