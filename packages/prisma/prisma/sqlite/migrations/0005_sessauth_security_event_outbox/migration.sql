-- sessauth (@sessauth/prisma), step 0007-security-event-outbox: the Shared Signals transmitter's outbox
-- (JWT_SSF_TRANSMITTER, the store's securityEventOutbox option), as @sessauth/kysely creates it. Add it with the
-- model of sessauth-security-event.prisma.

create table "sessauth_session_security_event" ("id" varchar(64) not null primary key, "batch_id" varchar(64) not null, "stream_id" varchar(64) not null, "token" text not null, "user_id" varchar(255), "session_id" varchar(128), "state" varchar(8) not null, "attempts" integer not null, "next_attempt_at" bigint not null, "created_at" bigint not null, "last_error" varchar(255));
create index "sessauth_session_security_event_due_idx" on "sessauth_session_security_event" ("next_attempt_at");
create index "sessauth_session_security_event_batch_idx" on "sessauth_session_security_event" ("batch_id");
