CREATE TABLE `deliverable_views` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`file_id` integer NOT NULL,
	`status` text(20) DEFAULT 'queued' NOT NULL,
	`progress_percent` integer DEFAULT 0 NOT NULL,
	`error` text(500),
	`attempts` integer DEFAULT 0 NOT NULL,
	`cog_name` text,
	`preview_name` text,
	`thumbnail_name` text,
	`min_value` real,
	`max_value` real,
	`started_at` integer,
	`finished_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`file_id`) REFERENCES `project_files`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `deliverable_views_file_unique` ON `deliverable_views` (`file_id`);--> statement-breakpoint
CREATE INDEX `deliverable_views_status_idx` ON `deliverable_views` (`status`);--> statement-breakpoint
CREATE TABLE `share_links` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`project_id` integer NOT NULL,
	`created_by` integer,
	`token_hash` text(64) NOT NULL,
	`file_ids` text,
	`allow_download` integer DEFAULT false NOT NULL,
	`expires_at` integer NOT NULL,
	`revoked_at` integer,
	`open_count` integer DEFAULT 0 NOT NULL,
	`download_count` integer DEFAULT 0 NOT NULL,
	`last_opened_at` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `share_links_token_unique` ON `share_links` (`token_hash`);--> statement-breakpoint
CREATE INDEX `share_links_project_idx` ON `share_links` (`project_id`);--> statement-breakpoint
ALTER TABLE `project_files` ADD `deliverable_kind` text(20);--> statement-breakpoint
ALTER TABLE `project_files` ADD `raster_info` text;