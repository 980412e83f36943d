ALTER TABLE `project_files` ADD `sha256` text(64);--> statement-breakpoint
CREATE UNIQUE INDEX `project_files_file_name_unique` ON `project_files` (`file_name`);