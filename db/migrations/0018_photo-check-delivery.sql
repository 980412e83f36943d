ALTER TABLE `project_files` ADD `camera` text(100);--> statement-breakpoint
ALTER TABLE `processing_jobs` ADD `accepted_warnings` text;--> statement-breakpoint
ALTER TABLE `processing_jobs` ADD `deliver_when_done` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `processing_jobs` ADD `followed_up_at` integer;--> statement-breakpoint
ALTER TABLE `processing_jobs` ADD `follow_up_note` text(500);--> statement-breakpoint
UPDATE `processing_jobs` SET `followed_up_at` = coalesce(`finished_at`, `updated_at`) WHERE `status` IN ('completed', 'failed', 'canceled');
