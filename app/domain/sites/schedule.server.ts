/**
 * The repeat schedules' daily run. Two steps, each safe to repeat:
 *
 * 1. For every site whose next preferred date is within the reminder days, ONE transaction
 *    claims the (site, date) row of `site_scheduled_surveys` (unique), makes the quoted repeat
 *    of the site's latest flown or paid survey (`repeatProject`) and moves the schedule on.
 *    A second run — after a restart, or beside this one — finds the row and makes nothing.
 * 2. Every run with a project and no `reminded_at` is e-mailed a link to pay for it, then
 *    marked. A crash between the two steps leaves the row unmarked: the next run sends it.
 *
 * Nothing is charged: the client pays through the usual checkout, or lets the quote lapse.
 */
import { daysUntil } from '#app/domain/operator/expiry.ts'
import { getPricingSettings } from '#app/domain/pricing/settings.server.ts'
import { canRepeat } from '#app/domain/projects/status.ts'
import { appUrl } from '#app/lib/config/env.server.ts'
import { getDb, type DbOrTx } from '#app/lib/db/db.server.ts'
import { formatDate, todayInSouthAfrica } from '#app/lib/format/dates.ts'
import { formatRand } from '#app/lib/format/numbers.ts'
import { DomainError } from '#app/lib/http/domain-error.ts'
import type { DailyTask } from '#app/lib/jobs/daily.server.ts'
import { sendEmail } from '#app/lib/mail/mail.server.ts'
import { renderEmail } from '#app/lib/mail/templates.ts'
import { registerStatefulModule } from '#app/lib/process/stateful-modules.server.ts'
import { projects, sites, siteScheduledSurveys, users, type Project, type Site } from '#db/schema.ts'
import { and, eq, isNotNull, isNull } from 'drizzle-orm'

import { repeatProject } from './repeat.server.ts'
import { listSiteProjects } from './site-access.server.ts'
import { nextDueOn } from './site-schedule.ts'

registerStatefulModule('sites/schedule')

const NOTHING_TO_REPEAT = 'This site has no flown or paid survey to repeat'

/** The schedule's next date after the run for `dueOn`: counted from it, on the schedule's day. */
function advancedDueOn(site: Site, dueOn: string, today: string) {
  return nextDueOn(site.repeatEvery!, dueOn, dueOn > today ? dueOn : today, site.repeatDay ?? undefined)
}

/**
 * One site's run for `dueOn`, in one transaction: the claim row, the quoted repeat and the
 * advanced schedule — all or nothing. Returns the new project's id, or null when this date's
 * run already happened (the schedule is still moved on) or the schedule changed meanwhile.
 */
function draftScheduledSurvey(siteId: number, dueOn: string, now: Date, db: DbOrTx): number | null {
  return db.transaction((tx) => {
    const site = tx.select().from(sites).where(eq(sites.id, siteId)).get()
    if (!site?.repeatEvery || site.nextDueOn !== dueOn) return null
    const moveOn = () =>
      tx
        .update(sites)
        .set({ nextDueOn: advancedDueOn(site, dueOn, todayInSouthAfrica(now)), updatedAt: now })
        .where(eq(sites.id, site.id))
        .run()
    const claim = tx
      .insert(siteScheduledSurveys)
      .values({ siteId, dueOn, createdAt: now })
      .onConflictDoNothing()
      .returning()
      .get()
    if (!claim) {
      moveOn()
      return null
    }
    const source = listSiteProjects(site.id, tx).filter(canRepeat).at(-1)
    if (!source) throw new DomainError(409, NOTHING_TO_REPEAT)
    const project = repeatProject(site.clientId, source.id, { preferredDate: dueOn, now }, tx)
    tx.update(siteScheduledSurveys)
      .set({ projectId: project.id })
      .where(eq(siteScheduledSurveys.id, claim.id))
      .run()
    moveOn()
    return project.id
  })
}

/** Step 1: the quoted repeats due within the reminder days. A site that fails is logged and retried tomorrow. */
export function draftDueScheduledSurveys(now: Date = new Date(), db: DbOrTx = getDb()) {
  const today = todayInSouthAfrica(now)
  const { repeatReminderDays } = getPricingSettings(db)
  const due = db
    .select({ id: sites.id, nextDueOn: sites.nextDueOn })
    .from(sites)
    .where(isNotNull(sites.repeatEvery))
    .all()
    .filter((s) => s.nextDueOn && daysUntil(s.nextDueOn, today) <= repeatReminderDays)
  const drafted: number[] = []
  const failed: Array<{ siteId: number; error: string }> = []
  for (const site of due) {
    try {
      const projectId = draftScheduledSurvey(site.id, site.nextDueOn!, now, db)
      if (projectId !== null) drafted.push(projectId)
    } catch (error) {
      failed.push({ siteId: site.id, error: error instanceof Error ? error.message : String(error) })
    }
  }
  return { drafted, failed }
}

function reminderEmail(site: Site, project: Project, client: { email: string; firstName: string }) {
  const checkoutUrl = `${appUrl()}/checkout/${project.id}`
  return {
    to: client.email,
    subject: `Your next survey of ${site.name} is ready to book`,
    ...renderEmail({
      heading: 'Your next survey is ready to book',
      paragraphs: [
        `Hi ${client.firstName},`,
        `${site.name} is due for its next survey. We have quoted it at today's prices; pay for it to book the flight. Nothing is charged until you do.`,
      ],
      details: [
        ['Site', site.name],
        ['Preferred date', formatDate(project.deadline)],
        ['Quote', formatRand(project.quoteAmount)],
      ],
      action: { label: 'Review and pay', url: checkoutUrl },
      links: [{ label: 'Change or cancel the schedule', url: `${appUrl()}/sites/${site.id}` }],
    }),
  }
}

/**
 * Step 2: e-mails every drafted run not yet reminded, then sets `reminded_at`. A failed send
 * leaves the row for the next run; a crash between the SMTP server's acceptance and the update
 * could send a second copy.
 */
async function sendScheduledSurveyReminders(now: Date = new Date(), db: DbOrTx = getDb()) {
  const pending = db
    .select({ run: siteScheduledSurveys, site: sites, project: projects, client: users })
    .from(siteScheduledSurveys)
    .innerJoin(sites, eq(sites.id, siteScheduledSurveys.siteId))
    .innerJoin(projects, eq(projects.id, siteScheduledSurveys.projectId))
    .innerJoin(users, eq(users.id, sites.clientId))
    .where(isNull(siteScheduledSurveys.remindedAt))
    .all()
  let sent = 0
  let failed = 0
  for (const { run, site, project, client } of pending) {
    // Paid or cancelled meanwhile: nothing to ask for; marked so it is not looked at again.
    if (project.status === 'pending' && !project.isPaid) {
      try {
        await sendEmail(reminderEmail(site, project, client))
        sent += 1
      } catch (error) {
        console.warn(`[schedule] reminder for site ${site.id} (${run.dueOn}) not sent:`, error)
        failed += 1
        continue
      }
    }
    db.update(siteScheduledSurveys)
      .set({ remindedAt: now })
      .where(and(eq(siteScheduledSurveys.id, run.id), isNull(siteScheduledSurveys.remindedAt)))
      .run()
  }
  return { sent, failed }
}

let lastRun: Promise<unknown> = Promise.resolve()

/**
 * The daily run: draft what is due, then send every reminder still owed. Runs in this process
 * take turns, so two at once cannot both read a reminder as unsent.
 */
export function runSiteSchedules(now: Date = new Date(), db: DbOrTx = getDb()) {
  const run = lastRun.then(async () => {
    const drafts = draftDueScheduledSurveys(now, db)
    const reminders = await sendScheduledSurveyReminders(now, db)
    return { drafted: drafts.drafted, draftFailures: drafts.failed, ...reminders }
  })
  lastRun = run.catch(() => undefined)
  return run
}

/** The daily run of the sites' repeat schedules. */
export const repeatSchedulesDailyTask: DailyTask = {
  name: 'repeat schedules',
  async run() {
    const schedules = await runSiteSchedules()
    if (schedules.drafted.length || schedules.sent || schedules.failed || schedules.draftFailures.length)
      console.log(
        `[daily] repeat schedules: ${schedules.drafted.length} survey(s) quoted, ${schedules.sent} reminder(s) sent, ${schedules.failed} not sent`,
      )
    for (const failure of schedules.draftFailures)
      console.warn(`[daily] repeat schedule of site ${failure.siteId} not run: ${failure.error}`)
  },
}
