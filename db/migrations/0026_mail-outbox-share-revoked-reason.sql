CREATE TABLE `mail_outbox` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`message_id` text(200) NOT NULL,
	`message` text NOT NULL,
	`state` text(10) NOT NULL,
	`owner` text(40) NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`due_at` integer NOT NULL,
	`last_error` text(300),
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `mail_outbox_due_idx` ON `mail_outbox` (`state`,`due_at`);
--> statement-breakpoint
ALTER TABLE `share_links` ADD `revoked_reason` text(20);
