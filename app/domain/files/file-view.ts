/** How a stored project file is shown in lists and /api answers (shared: components import the type). */
import type { ProjectFile } from '#db/schema.ts'

export function downloadUrl(file: Pick<ProjectFile, 'id' | 'originalName'>) {
  return `/api/download-file/${file.id}?filename=${encodeURIComponent(file.originalName)}`
}

/** The shape lists and /api answers use (they always carry id, fileType, fileCategory, originalName, fileUrl, fileSize). */
export function toFileView(file: ProjectFile) {
  return {
    id: file.id,
    projectId: file.projectId,
    originalName: file.originalName,
    fileUrl: file.fileUrl,
    fileType: file.fileType,
    fileSize: file.fileSize,
    fileCategory: file.fileCategory,
    uploadedBy: file.uploadedBy,
    sha256: file.sha256,
    createdAt: file.createdAt.toISOString(),
    /** When the retention job deleted the bytes (the row stays as the record); null while stored. */
    removedAt: file.removedAt ? file.removedAt.toISOString() : null,
    /** A processing job's output not published yet (only admins are shown one). */
    withheld: file.withheld,
  }
}
export type FileView = ReturnType<typeof toFileView>
