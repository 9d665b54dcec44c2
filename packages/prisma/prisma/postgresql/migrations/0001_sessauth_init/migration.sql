-- sessauth (@sessauth/prisma), steps 0001-create-session, 0002-create-rate-limit and 0003-session-name:
-- the tables of sessauth.prisma, as @sessauth/kysely creates them (`sessauth-kysely sql --dialect postgres`).
-- The session id collates "C" (byte order), which a Prisma model cannot say.

-- 0001-create-session
create table "sessauth_session" ("id" varchar(128) collate "C" not null primary key, "user_id" varchar(255) not null, "refresh_jti" varchar(128) not null, "security_stamp" varchar(255) not null, "created_at" bigint not null, "last_activity_at" bigint not null, "expires_at" bigint not null, "expired_at" bigint, "ip_address" varchar(45), "user_agent" varchar(512), "browser" varchar(255), "location" text);
create index "sessauth_session_user_active_idx" on "sessauth_session" ("user_id", "expired_at", "created_at", "id");
create index "sessauth_session_expired_at_idx" on "sessauth_session" ("expired_at");
create index "sessauth_session_expires_at_idx" on "sessauth_session" ("expires_at");
create index "sessauth_session_created_id_idx" on "sessauth_session" ("created_at", "id");

-- 0002-create-rate-limit
create table "sessauth_rate_limit" ("counter_key" varchar(64) not null primary key, "count" integer not null, "reset_at" bigint not null);
create index "sessauth_rate_limit_reset_at_idx" on "sessauth_rate_limit" ("reset_at");

-- 0003-session-name
alter table "sessauth_session" add column "name" varchar(64);
