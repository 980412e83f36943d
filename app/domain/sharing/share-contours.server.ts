/**
 * Contour lines through a download link: the same files the Map view's contour form makes, from
 * the original elevation model, so only a link that lets its holder take the data offers them
 * (a view-only link shows, it does not give), each counted as a download of the model. The work
 * runs in the client's GDAL share but against the link's own measure ceiling.
 */
import { contoursOfModel } from '#app/domain/deliverables/contours.server.ts'
import { MEASURE_MESSAGES } from '#app/domain/deliverables/measure-schemas.ts'
import { countSharedMeasure } from '#app/domain/deliverables/measure.server.ts'
import type { ContourQuery } from '#app/domain/deliverables/terrain-schemas.ts'
import { FILE_MESSAGES } from '#app/domain/files/rules.ts'
import { absolutePathOf } from '#app/domain/files/storage-paths.server.ts'
import { DomainError } from '#app/lib/http/domain-error.ts'
import { isStoredFile } from '#app/lib/storage/file-cache.server.ts'
import type { ProjectFile } from '#db/schema.ts'

import { requireDownloadAllowed, type OpenShare } from './share-access.server.ts'
import { recordShareDownload } from './share-links.server.ts'

/** 403 for a view-only link, 400 for a shared file that is not an elevation model, 404 for one no longer stored. */
export async function sharedContourFile(
  share: OpenShare,
  file: ProjectFile,
  query: ContourQuery,
  signal?: AbortSignal,
) {
  requireDownloadAllowed(share)
  if (file.deliverableKind !== 'elevation') throw new DomainError(400, MEASURE_MESSAGES.notElevation)
  const stored = absolutePathOf(file)
  if (!isStoredFile(stored)) throw new DomainError(404, FILE_MESSAGES.notFound)
  const work = { owner: { id: share.project.clientId }, count: () => countSharedMeasure(share.link.id) }
  const contours = await contoursOfModel(work, stored, file.id, query, signal)
  // Data made from the original leaves through the link: the owner's count and audit show it.
  recordShareDownload(share.link, file.id)
  return contours
}
