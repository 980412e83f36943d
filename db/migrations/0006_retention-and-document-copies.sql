CREATE TABLE `document_copies` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`pilot_id` integer,
	`pilot_document` text(20),
	`operator_document_id` integer,
	`file_name` text NOT NULL,
	`original_name` text(255) NOT NULL,
	`file_type` text(100) NOT NULL,
	`file_size` integer NOT NULL,
	`sha256` text(64) NOT NULL,
	`uploaded_by` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`pilot_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`operator_document_id`) REFERENCES `operator_documents`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`uploaded_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `document_copies_file_name_unique` ON `document_copies` (`file_name`);--> statement-breakpoint
CREATE UNIQUE INDEX `document_copies_pilot_unique` ON `document_copies` (`pilot_id`,`pilot_document`);--> statement-breakpoint
CREATE UNIQUE INDEX `document_copies_operator_unique` ON `document_copies` (`operator_document_id`);--> statement-breakpoint
ALTER TABLE `project_files` ADD `removed_at` integer;--> statement-breakpoint
ALTER TABLE `projects` ADD `files_kept_until` integer;--> statement-breakpoint
ALTER TABLE `projects` ADD `files_kept_reason` text(500);