-- sessauth (@sessauth/prisma), step 0004-session-authentication (RFC 9470 step-up): when and how the user
-- last proved who they are. Nullable: existing rows read auth_time as created_at and amr as [].

alter table "sessauth_session" add column "auth_time" bigint;
alter table "sessauth_session" add column "amr" varchar(1024);
alter table "sessauth_session" add column "acr" varchar(255);
