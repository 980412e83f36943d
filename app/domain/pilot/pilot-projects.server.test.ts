import { getPilotStats } from '#app/domain/dashboard/stats.server.ts'
import { getDb } from '#app/lib/db/db.server.ts'
import { DomainError } from '#app/lib/http/domain-error.ts'
import { flightLogs, projects } from '#db/schema.ts'
import { addTestFile, createTestProject, createTestUser } from '#tests/factories.ts'
import { eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'

import {
  getAssignedProject,
  listAssignedProjects,
  listFlightLogs,
  saveProgress,
} from './pilot-projects.server.ts'
import {
  FlightDurationFormSchema,
  flightHoursOf,
  formatFlightHours,
  formatFlightMinutes,
  SaveProgressSchema,
} from './schemas.ts'

async function assigned(status: 'assigned' | 'in_progress' | 'completed' = 'assigned') {
  const pilot = await createTestUser({ role: 'pilot' })
  const project = await createTestProject({ paid: true, status })
  getDb().update(projects).set({ pilotId: pilot.id }).where(eq(projects.id, project.id)).run()
  return { pilot, project }
}

describe('assigned projects', () => {
  test('lists only the pilot’s projects, with client and media flags', async () => {
    const { pilot, project } = await assigned()
    await createTestProject({ paid: true }) // someone else's job
    addTestFile(project.id, 'image/jpeg')
    const list = listAssignedProjects(pilot.id)
    expect(list).toHaveLength(1)
    expect(list[0]).toMatchObject({
      id: project.id,
      clientName: 'Client Tester',
      hasImages: true,
      hasVideos: false,
      imageCount: 1,
    })
    expect(list[0]!.clientEmail).toMatch(/@example\.test$/)
    expect(list[0]!.flightPlan?.areas).toHaveLength(2)
    expect(list[0]).not.toHaveProperty('profitMargin')
    expect(list[0]).not.toHaveProperty('polygonGeoJson')
  })

  test('another pilot’s project is 404', async () => {
    const { project } = await assigned()
    const other = await createTestUser({ role: 'pilot' })
    expect(() => getAssignedProject(other.id, project.id)).toThrow(DomainError)
    try {
      getAssignedProject(other.id, project.id)
    } catch (error) {
      expect((error as DomainError).status).toBe(404)
    }
  })
})

describe('saveProgress', () => {
  test('writes a flight log, adds to the project hours and keeps the status', async () => {
    const { pilot, project } = await assigned('in_progress')
    saveProgress(pilot.id, project.id, 1.5)
    const result = saveProgress(pilot.id, project.id, 0.25)
    expect(result.project).toMatchObject({ status: 'in_progress', flightHours: 1.75 })
    const logs = getDb().select().from(flightLogs).where(eq(flightLogs.projectId, project.id)).all()
    expect(logs.map((l) => l.hours)).toEqual([1.5, 0.25])
    expect(getPilotStats(pilot.id)).toMatchObject({
      activeProjects: 1,
      totalFlightHours: 1.8,
      flightHoursThisMonth: 1.8,
    })
  })

  test('the dashboard totals are whole minutes: 38 logged minutes read 38 min, not 36', async () => {
    const { pilot, project } = await assigned('in_progress')
    saveProgress(pilot.id, project.id, flightHoursOf({ hours: 0, minutes: 38 }))
    const stats = getPilotStats(pilot.id)
    expect(stats).toMatchObject({ totalFlightMinutes: 38, flightMinutesThisMonth: 38 })
    expect(formatFlightMinutes(stats.totalFlightMinutes)).toBe('38 min')
    expect(formatFlightMinutes(125)).toBe('2 h 5 min')
  })

  test('refuses zero hours, other pilots and completed projects', async () => {
    const { pilot, project } = await assigned()
    const other = await createTestUser({ role: 'pilot' })
    expect(() => saveProgress(pilot.id, project.id, 0)).toThrow(/more than 0 minutes/)
    expect(() => saveProgress(other.id, project.id, 1)).toThrow('Project not found')
    const done = await assigned('completed')
    expect(() => saveProgress(done.pilot.id, done.project.id, 1)).toThrow('This project is already completed')
    expect(getDb().select().from(flightLogs).where(eq(flightLogs.projectId, project.id)).all()).toHaveLength(
      0,
    )
  })
})

describe('flight logs', () => {
  test('lists projects with uploaded media, their counts and logged hours', async () => {
    const { pilot, project } = await assigned()
    const second = await createTestProject({ paid: true, status: 'assigned', name: 'No media yet' })
    getDb().update(projects).set({ pilotId: pilot.id }).where(eq(projects.id, second.id)).run()
    addTestFile(project.id, 'image/jpeg')
    addTestFile(project.id, 'image/png')
    addTestFile(project.id, 'video/mp4')
    addTestFile(project.id, 'application/pdf')
    saveProgress(pilot.id, project.id, 2)
    const logs = listFlightLogs(pilot.id)
    expect(logs).toHaveLength(1)
    expect(logs[0]).toMatchObject({
      projectId: project.id,
      imageCount: 2,
      videoCount: 1,
      flightHours: 2,
      flights: 1,
    })
    expect(logs[0]!.lastFlightAt).toBeInstanceOf(Date)
  })
})

describe('flight duration rules', () => {
  test('hours 0–12, minutes 0–59, more than 0 in all', () => {
    expect(FlightDurationFormSchema.safeParse({ projectId: 1, hours: 2, minutes: 30 }).success).toBe(true)
    expect(FlightDurationFormSchema.safeParse({ projectId: 1, hours: 13, minutes: 0 }).success).toBe(false)
    expect(FlightDurationFormSchema.safeParse({ projectId: 1, hours: 1, minutes: 60 }).success).toBe(false)
    expect(FlightDurationFormSchema.safeParse({ projectId: 1, hours: 0, minutes: 0 }).success).toBe(false)
    expect(FlightDurationFormSchema.safeParse({ projectId: 1, hours: 1.5, minutes: 0 }).success).toBe(false)
    expect(flightHoursOf({ hours: 2, minutes: 45 })).toBe(2.75)
    expect(SaveProgressSchema.safeParse({ flightHours: 12 + 59 / 60 }).success).toBe(true)
    expect(SaveProgressSchema.safeParse({ flightHours: 13 }).success).toBe(false)
    expect(SaveProgressSchema.safeParse({ flightHours: '2' }).success).toBe(false)
    expect(SaveProgressSchema.safeParse({}).success).toBe(false)
    expect(formatFlightHours(2.75)).toBe('2 h 45 min')
    expect(formatFlightHours(0.5)).toBe('30 min')
    expect(formatFlightHours(3)).toBe('3 h')
    expect(formatFlightHours(0)).toBe('0 h')
  })
})
