CREATE TABLE `annotations` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`project_id` integer NOT NULL,
	`author_id` integer,
	`kind` text(10) NOT NULL,
	`geometry` text NOT NULL,
	`title` text(200) NOT NULL,
	`note` text(2000) DEFAULT '' NOT NULL,
	`color` text(7) NOT NULL,
	`stockpile_kind` text(10),
	`base` text(20),
	`base_elevation_m` real,
	`measurement` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`author_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `annotations_project_idx` ON `annotations` (`project_id`);--> statement-breakpoint
ALTER TABLE `share_links` ADD `include_notes` integer DEFAULT false NOT NULL;