/** Image and video counts of projects' files (the admin's Media column, the pilot's hasImages/hasVideos). */
import { inArray, sql } from 'drizzle-orm'
import { projectFiles } from '#db/schema.ts'
import { getDb } from '#app/domain/db/db.server.ts'

export interface MediaCount {
  images: number
  videos: number
}

export function mediaCounts(projectIds: number[]): Map<number, MediaCount> {
  const out = new Map<number, MediaCount>()
  if (!projectIds.length) return out
  const rows = getDb()
    .select({
      projectId: projectFiles.projectId,
      images: sql<number>`sum(case when ${projectFiles.fileType} like 'image/%' then 1 else 0 end)`,
      videos: sql<number>`sum(case when ${projectFiles.fileType} like 'video/%' then 1 else 0 end)`,
    })
    .from(projectFiles)
    .where(inArray(projectFiles.projectId, projectIds))
    .groupBy(projectFiles.projectId)
    .all()
  for (const r of rows) out.set(r.projectId, { images: Number(r.images ?? 0), videos: Number(r.videos ?? 0) })
  return out
}
