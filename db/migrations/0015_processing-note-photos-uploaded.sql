ALTER TABLE `project_files` ADD `processing_note` text;--> statement-breakpoint
ALTER TABLE `projects` ADD `photos_uploaded_at` integer;