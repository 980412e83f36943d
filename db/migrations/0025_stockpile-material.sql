ALTER TABLE `annotations` ADD `material` text(60);--> statement-breakpoint
ALTER TABLE `annotations` ADD `density_t_per_m3` real;
