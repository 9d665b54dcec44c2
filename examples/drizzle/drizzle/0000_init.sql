CREATE TABLE `users` (
	`id` text PRIMARY KEY NOT NULL,
	`username` text NOT NULL,
	`password_hash` text NOT NULL,
	`security_stamp` text NOT NULL,
	`is_admin` integer DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_username_unique` ON `users` (`username`);--> statement-breakpoint
CREATE TABLE `sessauth_rate_limit` (
	`counter_key` varchar(64) PRIMARY KEY NOT NULL,
	`count` integer NOT NULL,
	`reset_at` bigint NOT NULL
);
--> statement-breakpoint
CREATE INDEX `sessauth_rate_limit_reset_at_idx` ON `sessauth_rate_limit` (`reset_at`);--> statement-breakpoint
CREATE TABLE `sessauth_session` (
	`id` varchar(128) PRIMARY KEY NOT NULL,
	`user_id` varchar(255) NOT NULL,
	`refresh_jti` varchar(128) NOT NULL,
	`security_stamp` varchar(255) NOT NULL,
	`created_at` bigint NOT NULL,
	`last_activity_at` bigint NOT NULL,
	`expires_at` bigint NOT NULL,
	`expired_at` bigint,
	`ip_address` varchar(45),
	`user_agent` varchar(512),
	`browser` varchar(255),
	`location` text,
	`name` varchar(64)
);
--> statement-breakpoint
CREATE INDEX `sessauth_session_user_active_idx` ON `sessauth_session` (`user_id`,`expired_at`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `sessauth_session_expired_at_idx` ON `sessauth_session` (`expired_at`);--> statement-breakpoint
CREATE INDEX `sessauth_session_expires_at_idx` ON `sessauth_session` (`expires_at`);--> statement-breakpoint
CREATE INDEX `sessauth_session_created_id_idx` ON `sessauth_session` (`created_at`,`id`);