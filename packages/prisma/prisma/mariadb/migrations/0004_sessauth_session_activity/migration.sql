-- sessauth (@sessauth/prisma), step 0006-session-activity: the activity history (JWT_SESSION_ACTIVITY, the store's
-- activity option), as @sessauth/kysely creates it. Add it with the model of sessauth-activity.prisma.

create table `sessauth_session_activity` (`id` varchar(64) not null primary key, `session_id` varchar(128) not null, `user_id` varchar(255) not null, `kind` varchar(32) not null, `at` bigint not null, `expires_at` bigint not null, `ip_address` varchar(45), `browser` varchar(255), `location` text, `detail` varchar(512)) engine = InnoDB default charset = utf8mb4 collate = utf8mb4_nopad_bin;
create index `sessauth_session_activity_sid_idx` on `sessauth_session_activity` (`session_id`, `id`);
create index `sessauth_session_activity_exp_idx` on `sessauth_session_activity` (`expires_at`);
