CREATE TABLE `processing_jobs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`project_id` integer NOT NULL,
	`node_id` integer,
	`requested_node_id` integer,
	`created_by` integer,
	`task_uuid` text(64),
	`preset` text(20) NOT NULL,
	`options` text NOT NULL,
	`status` text(20) DEFAULT 'queued' NOT NULL,
	`progress_percent` integer DEFAULT 0 NOT NULL,
	`stage` text(200),
	`images_count` integer DEFAULT 0 NOT NULL,
	`images_uploaded` integer DEFAULT 0 NOT NULL,
	`webhook_secret_hash` text(64),
	`resubmits` integer DEFAULT 0 NOT NULL,
	`error` text(2000),
	`engine_version` text(100),
	`output_tail` text,
	`output_lines` integer DEFAULT 0 NOT NULL,
	`node_seen_at` integer,
	`next_check_at` integer,
	`cancel_requested` integer DEFAULT false NOT NULL,
	`started_at` integer,
	`finished_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`node_id`) REFERENCES `processing_nodes`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`requested_node_id`) REFERENCES `processing_nodes`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `processing_jobs_project_idx` ON `processing_jobs` (`project_id`);--> statement-breakpoint
CREATE INDEX `processing_jobs_status_idx` ON `processing_jobs` (`status`);--> statement-breakpoint
CREATE TABLE `processing_nodes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`label` text(100) NOT NULL,
	`url` text(500) NOT NULL,
	`token` text(500),
	`enabled` integer DEFAULT true NOT NULL,
	`online` integer DEFAULT false NOT NULL,
	`queue_count` integer DEFAULT 0 NOT NULL,
	`max_images` integer,
	`engine_version` text(100),
	`last_seen_at` integer,
	`failing_since` integer,
	`last_error` text(500),
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE `project_files` ADD `processing_job_id` integer;