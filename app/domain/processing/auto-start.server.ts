/** Processing started by the pilot's "upload finished", when the admin's setting says so. */
import { getDeliverableSettings } from '#app/domain/deliverables/settings.server.ts'
import { getDb, type DbOrTx } from '#app/lib/db/db.server.ts'
import { DomainError } from '#app/lib/http/domain-error.ts'
import type { ProcessingPreset } from '#db/schema.ts'

import { mailPhotoCheckToAdmins } from './job-mail.server.ts'
import { activeJobOf, queueJob } from './jobs.server.ts'
import { projectPhotoCheck, projectPhotosWithoutAccessCheck } from './project-photos.server.ts'

/**
 * The preset of an automatic start: Standard makes the orthomosaic and the DSM and DTM that
 * volumes, change maps and site reports measure on; Full 3D costs the node hours more and is
 * the admin's choice to make.
 */
export const AUTO_START_PRESET: ProcessingPreset = 'standard'

/**
 * When the setting is on, the pilot's "upload finished" queues a job with the Standard preset;
 * null when it is off, there are no photos, a job is already active or the photo check found
 * anything (the admins are e-mailed the list: only a person accepts problems). With no node
 * online the job waits for one (the admin sees it waiting and may cancel it).
 */
export async function startProcessingAutomatically(actorId: number, projectId: number, db: DbOrTx = getDb()) {
  const settings = getDeliverableSettings(db)
  if (!settings.autoProcessPhotos) return null
  const count = projectPhotosWithoutAccessCheck(projectId, db).length
  if (!count || activeJobOf(projectId, db)) return null
  const check = await projectPhotoCheck(projectId, null, db)
  if (check.refusal || check.problems.length) {
    await mailPhotoCheckToAdmins(projectId, check, db)
    return null
  }
  try {
    return queueJob(
      {
        projectId,
        preset: AUTO_START_PRESET,
        options: {},
        requestedNodeId: null,
        createdBy: null,
        actorId,
        imagesCount: count,
        acceptedWarnings: null,
        deliverWhenDone: settings.deliverWhenDone,
        outputs: 'replace',
      },
      db,
    )
  } catch (error) {
    // Another start won the race: that job processes these photos.
    if (error instanceof DomainError && error.status === 409) return null
    throw error
  }
}
