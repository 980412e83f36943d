CREATE TABLE `site_scheduled_surveys` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`site_id` integer NOT NULL,
	`due_on` text(10) NOT NULL,
	`project_id` integer,
	`reminded_at` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`site_id`) REFERENCES `sites`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `site_scheduled_surveys_site_due_unique` ON `site_scheduled_surveys` (`site_id`,`due_on`);--> statement-breakpoint
CREATE TABLE `sites` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`client_id` integer NOT NULL,
	`name` text(255) NOT NULL,
	`repeat_every` text(10),
	`next_due_on` text(10),
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`client_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `sites_client_idx` ON `sites` (`client_id`);--> statement-breakpoint
ALTER TABLE `projects` ADD `site_id` integer REFERENCES sites(id) ON DELETE set null;--> statement-breakpoint
ALTER TABLE `projects` ADD `repeat_of_project_id` integer REFERENCES projects(id) ON DELETE set null;--> statement-breakpoint
ALTER TABLE `projects` ADD `repeat_discount_percent` real DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `projects` ADD `repeat_discount` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX `projects_site_idx` ON `projects` (`site_id`);