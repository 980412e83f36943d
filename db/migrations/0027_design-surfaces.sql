CREATE TABLE `design_surfaces` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`project_id` integer NOT NULL,
	`name` text(120) NOT NULL,
	`kind` text(10) NOT NULL,
	`original_name` text(255) NOT NULL,
	`file_name` text NOT NULL,
	`raster_name` text NOT NULL,
	`crs` text(40) NOT NULL,
	`outline` text NOT NULL,
	`extent` text NOT NULL,
	`min_elevation_m` real,
	`max_elevation_m` real,
	`created_by` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `design_surfaces_project_idx` ON `design_surfaces` (`project_id`);
