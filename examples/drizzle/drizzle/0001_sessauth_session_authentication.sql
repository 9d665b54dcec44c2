ALTER TABLE `sessauth_session` ADD `auth_time` bigint;--> statement-breakpoint
ALTER TABLE `sessauth_session` ADD `amr` varchar(1024);--> statement-breakpoint
ALTER TABLE `sessauth_session` ADD `acr` varchar(255);