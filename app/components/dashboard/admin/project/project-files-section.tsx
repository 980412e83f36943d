/** The project's files: the groups with delete buttons, Complete Project, retention and the upload form. */
import type { SubmissionResult } from '@conform-to/react'
import { Link } from '@remix-run/react'
import { FileGroups } from '#app/components/files/file-groups.tsx'
import { RetentionPanel } from '#app/components/files/retention-panel.tsx'
import { UploadWidget } from '#app/components/files/upload-widget.tsx'
import { MapViewLink } from '#app/components/mapview/map-view-link.tsx'

import type { ProjectDialogData } from './types.ts'

export function ProjectFilesSection({
  project,
  files,
  retention,
  action,
  keepResult,
}: Pick<ProjectDialogData, 'project' | 'files' | 'retention'> & {
  /** Where the file forms post (the dialog's own URL). */
  action: string
  keepResult: SubmissionResult<string[]> | undefined
}) {
  return (
    <section
      aria-labelledby="pd-files"
      className="mt-5 rounded-xl border border-ink-100 p-4"
      data-testid="admin-project-files"
    >
      <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
        <h3 id="pd-files" className="text-sm font-semibold text-ink-950">
          Files
        </h3>
        <MapViewLink projectId={project.id} files={files} />
        {project.status === 'completed' ? (
          <button
            type="button"
            className="btn-secondary btn-sm"
            disabled
            aria-disabled="true"
            title="This project is already completed"
          >
            Complete Project
          </button>
        ) : (
          <Link to={`/admin/projects/${project.id}/complete`} className="btn-primary btn-sm">
            Complete Project
          </Link>
        )}
      </div>
      <FileGroups files={files} canDelete={(f) => !f.removedAt} deleteAction={action} />
      {retention ? (
        <RetentionPanel
          projectId={project.id}
          retention={retention}
          reason={project.filesKeptReason}
          action={action}
          lastResult={keepResult}
        />
      ) : null}
      <UploadWidget
        projectId={project.id}
        category="project_document"
        multiple
        action={action}
        label="Upload a project file"
        className="mt-4 border-t border-ink-100 pt-4"
      />
    </section>
  )
}
