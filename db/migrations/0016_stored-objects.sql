CREATE TABLE `stored_objects` (
	`key` text PRIMARY KEY NOT NULL,
	`state` text(10) NOT NULL,
	`version` integer DEFAULT 1 NOT NULL,
	`size` integer,
	`sha256` text(64),
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` integer NOT NULL,
	`last_error` text(500),
	`safe_at` integer,
	`evicted_at` integer,
	`last_read_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `stored_objects_due_idx` ON `stored_objects` (`state`,`next_attempt_at`);--> statement-breakpoint
CREATE INDEX `stored_objects_read_idx` ON `stored_objects` (`evicted_at`,`last_read_at`);