/**
 * Jobs the server runs once a day: the SACAA document expiry mail (ADR 113), the
 * deletion of survey imagery past its availability and the sites' repeat
 * schedules. Timers are unref'd so they
 * never keep the process alive; a failure is logged and retried the next day.
 */
import { removeExpiredProjectFiles } from '#app/domain/files/retention.server.ts'
import { sendExpiryDigest } from '#app/domain/operator/operator-documents.server.ts'
import { runSiteSchedules } from '#app/domain/sites/schedule.server.ts'

const DAY_MS = 24 * 60 * 60 * 1000
const FIRST_RUN_DELAY_MS = 60 * 1000

async function runDailyJobs() {
  try {
    const digest = await sendExpiryDigest()
    if (digest.count && !digest.alreadySent)
      console.log(`[daily] expiry mail: ${digest.count} item(s), sent=${digest.sent}`)
  } catch (error) {
    console.error('[daily] expiry mail failed', error)
  }
  try {
    const removed = await removeExpiredProjectFiles()
    if (removed.filesRemoved || removed.bytesUnlinked)
      console.log(
        `[daily] retention: ${removed.filesRemoved} file(s) of ${removed.projects.length} project(s) removed, ${removed.bytesUnlinked} bytes freed`,
      )
  } catch (error) {
    console.error('[daily] retention failed', error)
  }
  try {
    const schedules = await runSiteSchedules()
    if (schedules.drafted.length || schedules.sent || schedules.failed || schedules.draftFailures.length)
      console.log(
        `[daily] repeat schedules: ${schedules.drafted.length} survey(s) quoted, ${schedules.sent} reminder(s) sent, ${schedules.failed} not sent`,
      )
    for (const failure of schedules.draftFailures)
      console.warn(`[daily] repeat schedule of site ${failure.siteId} not run: ${failure.error}`)
  } catch (error) {
    console.error('[daily] repeat schedules failed', error)
  }
}

export function startDailyJobs() {
  const first = setTimeout(() => void runDailyJobs(), FIRST_RUN_DELAY_MS)
  first.unref()
  const every = setInterval(() => void runDailyJobs(), DAY_MS)
  every.unref()
  return () => {
    clearTimeout(first)
    clearInterval(every)
  }
}
