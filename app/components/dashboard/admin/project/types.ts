import type { SerializeFrom } from '@remix-run/node'
import type { AdminProjectDialog } from '#app/domain/admin/project-dialog.server.ts'

/** What the admin's project dialog loads, as the browser receives it. */
export type ProjectDialogData = SerializeFrom<AdminProjectDialog>
