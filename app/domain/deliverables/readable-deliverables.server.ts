/**
 * Deliverables GDAL can read: released (`releasedDeliverablesWhere`), kept processed deliverables
 * whose viewing copy did not fail. A
 * failed one stays for download (an admin may deliver it knowingly), but no measure, stockpile
 * series or export CRS is taken from it.
 */
import { releasedDeliverablesWhere } from '#app/domain/files/file-queries.server.ts'
import { getDb, type DbOrTx } from '#app/lib/db/db.server.ts'
import { deliverableViews, projectFiles, type DeliverableKind, type ProjectFile } from '#db/schema.ts'
import { asc, desc, eq, isNull, ne, or } from 'drizzle-orm'

/** The readable deliverables of these projects (of one kind when asked), by upload time. */
export function readableDeliverables(
  projectIds: number[],
  { kind, newestFirst = false }: { kind?: DeliverableKind; newestFirst?: boolean } = {},
  db: DbOrTx = getDb(),
): ProjectFile[] {
  if (!projectIds.length) return []
  const order = newestFirst ? desc : asc
  return db
    .select({ file: projectFiles })
    .from(projectFiles)
    .leftJoin(deliverableViews, eq(deliverableViews.fileId, projectFiles.id))
    .where(
      releasedDeliverablesWhere(
        projectIds,
        ...(kind ? [eq(projectFiles.deliverableKind, kind)] : []),
        isNull(projectFiles.removedAt),
        or(isNull(deliverableViews.status), ne(deliverableViews.status, 'failed'))!,
      ),
    )
    .orderBy(order(projectFiles.createdAt), order(projectFiles.id))
    .all()
    .map((r) => r.file)
}
