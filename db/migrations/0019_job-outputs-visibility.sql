ALTER TABLE `project_files` ADD `withheld` integer DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX `project_files_withheld_idx` ON `project_files` (`processing_job_id`) WHERE "project_files"."withheld" = 1;--> statement-breakpoint
ALTER TABLE `processing_jobs` ADD `outputs` text(10) DEFAULT 'replace' NOT NULL;--> statement-breakpoint
ALTER TABLE `processing_jobs` ADD `published_at` integer;--> statement-breakpoint
UPDATE `processing_jobs` SET `published_at` = coalesce(`finished_at`, `updated_at`) WHERE `status` = 'completed';--> statement-breakpoint
UPDATE `project_files` SET `withheld` = true WHERE `processing_job_id` IN (SELECT `id` FROM `processing_jobs` WHERE `status` <> 'completed');
