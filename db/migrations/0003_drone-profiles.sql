CREATE TABLE `drone_profiles` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text(120) NOT NULL,
	`sensor_width_mm` real NOT NULL,
	`sensor_height_mm` real NOT NULL,
	`focal_length_mm` real NOT NULL,
	`image_width_px` integer NOT NULL,
	`image_height_px` integer NOT NULL,
	`min_trigger_interval_s` real NOT NULL,
	`speed_ms` real NOT NULL,
	`flight_time_per_battery_min` real NOT NULL,
	`usable_battery_share` real NOT NULL,
	`is_active` integer DEFAULT true NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `drone_profiles_name_unique` ON `drone_profiles` (`name`);--> statement-breakpoint
CREATE INDEX `drone_profiles_active_idx` ON `drone_profiles` (`is_active`);--> statement-breakpoint
ALTER TABLE `projects` ADD `survey_plan` text;