-- sessauth (@sessauth/prisma), step 0008-session-device-bound (W3C Device Bound Session Credentials):
-- the public key (JWK as JSON) of the browser key a session is bound to. Nullable: existing rows
-- read as unbound.

alter table "sessauth_session" add column "device_bound_key" text;
