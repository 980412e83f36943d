/**
 * The repeat schedule's run: with a fixed `now` it quotes the next survey and e-mails
 * the client once — run twice, run twice at once, or "restarted" after a crash before the mail.
 */
import { savePricingSettings } from '#app/domain/pricing/settings.server.ts'
import { resetEnvCache } from '#app/lib/config/env.server.ts'
import { getDb } from '#app/lib/db/db.server.ts'
import { projects, sites, siteScheduledSurveys } from '#db/schema.ts'
import { createQuotedProject, signedInUser } from '#tests/factories.ts'
import { unreachableSmtpUrl, withTestSmtp } from '#tests/helpers/smtp-server.ts'
import { eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'

import { draftDueScheduledSurveys, runSiteSchedules } from './schedule.server.ts'
import { updateSite } from './sites.server.ts'

const smtp = withTestSmtp()

/** Noon in Cape Town on a calendar day. */
const at = (isoDate: string) => new Date(`${isoDate}T12:00:00+02:00`)

/** A client's site of one survey flown on 10 January 2027, repeated every month from 12 January. */
async function monthlySite() {
  const client = await signedInUser('client')
  const { project } = await createQuotedProject(client.user.id, { name: 'Stockpile north' })
  const db = getDb()
  const site = db.insert(sites).values({ clientId: client.user.id, name: 'North yard' }).returning().get()
  db.update(projects)
    .set({ status: 'completed', isPaid: true, completedAt: at('2027-01-10'), siteId: site.id })
    .where(eq(projects.id, project.id))
    .run()
  updateSite(client.user, site.id, { repeatEvery: 'month' }, { now: at('2027-01-12') })
  return { client, site, project }
}

const siteRow = (id: number) => getDb().select().from(sites).where(eq(sites.id, id)).get()!
const projectsOf = (siteId: number) =>
  getDb().select().from(projects).where(eq(projects.siteId, siteId)).all()
const runsOf = (siteId: number) =>
  getDb().select().from(siteScheduledSurveys).where(eq(siteScheduledSurveys.siteId, siteId)).all()
const mailTo = (email: string) => smtp.messages.filter((m) => m.to.includes(email.toLowerCase()))

describe('repeat schedules', () => {
  test('the schedule is due one month after the flown date, on the same day', async () => {
    const { site } = await monthlySite()
    expect(siteRow(site.id)).toMatchObject({ repeatEvery: 'month', nextDueOn: '2027-02-10', repeatDay: 10 })
  })

  test('nothing before the reminder days; then one quoted repeat and one mail, however often it runs', async () => {
    const { client, site, project } = await monthlySite()
    await runSiteSchedules(at('2027-02-02'))
    expect(projectsOf(site.id)).toHaveLength(1)

    const now = at('2027-02-03') // 7 days before 10 February
    await runSiteSchedules(now)
    await runSiteSchedules(now)

    const repeats = projectsOf(site.id).filter((p) => p.id !== project.id)
    expect(repeats).toHaveLength(1)
    expect(repeats[0]).toMatchObject({
      status: 'pending',
      isPaid: false,
      repeatOfProjectId: project.id,
      deadline: '2027-02-10',
      clientId: client.user.id,
    })
    expect(runsOf(site.id)).toEqual([
      expect.objectContaining({ dueOn: '2027-02-10', projectId: repeats[0]!.id, remindedAt: now }),
    ])
    expect(siteRow(site.id).nextDueOn).toBe('2027-03-10')

    const mails = mailTo(client.user.email)
    expect(mails).toHaveLength(1)
    expect(mails[0]!.subject).toBe('Your next survey of North yard is ready to book')
    expect(mails[0]!.text).toContain(`/checkout/${repeats[0]!.id}`)
    expect(mails[0]!.text).toContain('10 February 2027')
  })

  test('two runs at once make one repeat and one mail', async () => {
    const { client, site } = await monthlySite()
    await Promise.all([runSiteSchedules(at('2027-02-05')), runSiteSchedules(at('2027-02-05'))])
    expect(projectsOf(site.id)).toHaveLength(2)
    expect(mailTo(client.user.email)).toHaveLength(1)
  })

  test('a crash after the draft, before the mail: the restarted run sends it once', async () => {
    const { client, site } = await monthlySite()
    const now = at('2027-02-04')
    // The first process quotes the survey and dies before its mail step.
    draftDueScheduledSurveys(now)
    expect(projectsOf(site.id)).toHaveLength(2)
    expect(runsOf(site.id)[0]!.remindedAt).toBeNull()
    expect(mailTo(client.user.email)).toHaveLength(0)

    // A fresh run against the same database.
    await runSiteSchedules(now)
    expect(mailTo(client.user.email)).toHaveLength(1)
    await runSiteSchedules(at('2027-02-05'))
    expect(projectsOf(site.id)).toHaveLength(2)
    expect(mailTo(client.user.email)).toHaveLength(1)
    expect(siteRow(site.id).nextDueOn).toBe('2027-03-10')
  })

  test('a mail that cannot be sent is sent by the next run', async () => {
    const { client, site } = await monthlySite()
    const working = process.env.SMTP_URL
    process.env.SMTP_URL = await unreachableSmtpUrl()
    resetEnvCache()
    try {
      expect((await runSiteSchedules(at('2027-02-04'))).failed).toBeGreaterThan(0)
    } finally {
      process.env.SMTP_URL = working
      resetEnvCache()
    }
    expect(runsOf(site.id)[0]!.remindedAt).toBeNull()
    await runSiteSchedules(at('2027-02-05'))
    expect(projectsOf(site.id)).toHaveLength(2)
    expect(mailTo(client.user.email)).toHaveLength(1)
  })

  test('the next month runs again, counted from the schedule day; cancelling stops it', async () => {
    const { client, site } = await monthlySite()
    await runSiteSchedules(at('2027-02-03'))
    await runSiteSchedules(at('2027-03-03'))
    expect(runsOf(site.id).map((r) => r.dueOn)).toEqual(['2027-02-10', '2027-03-10'])
    expect(siteRow(site.id).nextDueOn).toBe('2027-04-10')

    updateSite(client.user, site.id, { repeatEvery: null }, { now: at('2027-03-04') })
    await runSiteSchedules(at('2027-04-05'))
    expect(runsOf(site.id)).toHaveLength(2)
    expect(projectsOf(site.id)).toHaveLength(3)
    expect(mailTo(client.user.email)).toHaveLength(2)
  })

  test('the reminder days come from the settings', async () => {
    const { site } = await monthlySite()
    savePricingSettings({ repeatReminderDays: 2 }, null)
    try {
      await runSiteSchedules(at('2027-02-07'))
      expect(projectsOf(site.id)).toHaveLength(1)
      await runSiteSchedules(at('2027-02-08'))
      expect(projectsOf(site.id)).toHaveLength(2)
    } finally {
      savePricingSettings({ repeatReminderDays: 7 }, null)
    }
  })
})
