/** "Open the Map view" where a project's files are listed, once it has a deliverable to show. */
import { Link } from '@remix-run/react'

export function MapViewLink({
  projectId,
  files,
}: {
  projectId: number
  files: Array<{ fileCategory: string; removedAt?: string | Date | null; withheld?: boolean }>
}) {
  if (!files.some((f) => f.fileCategory === 'processed_deliverable' && !f.removedAt && !f.withheld))
    return null
  return (
    <Link to={`/projects/${projectId}/map`} className="btn-secondary btn-sm" data-testid="map-view-link">
      Open the Map view
    </Link>
  )
}
