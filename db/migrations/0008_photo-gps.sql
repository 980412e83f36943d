ALTER TABLE `project_files` ADD `gps_latitude` real;--> statement-breakpoint
ALTER TABLE `project_files` ADD `gps_longitude` real;--> statement-breakpoint
ALTER TABLE `project_files` ADD `gps_altitude_m` real;--> statement-breakpoint
ALTER TABLE `project_files` ADD `taken_at` integer;--> statement-breakpoint
ALTER TABLE `project_files` ADD `exif_read_at` integer;