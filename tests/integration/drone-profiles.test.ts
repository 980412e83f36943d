/**
 * Drone profiles: the reference drones in every fresh database, and the admin's dialogs
 * (plain form posts, as without JavaScript) with their rules.
 */
import { ensureReferenceDrones, listDroneProfiles } from '#app/domain/survey/drone-profiles.server.ts'
import { REFERENCE_DRONES } from '#app/domain/survey/reference-drones.ts'
import { getDb } from '#app/lib/db/db.server.ts'
import * as droneDelete from '#app/routes/admin.drones.$droneId_.delete.tsx'
import * as droneEdit from '#app/routes/admin.drones.$droneId.tsx'
import * as droneNew from '#app/routes/admin.drones.new.tsx'
import * as adminPage from '#app/routes/admin.tsx'
import { auditLog, droneProfiles } from '#db/schema.ts'
import { signedInUser } from '#tests/factories.ts'
import { callRoute } from '#tests/helpers/requests.ts'
import { eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'

const headersOf = (token: string) => ({ 'x-session-id': token })
const form = (overrides: Record<string, string> = {}) => ({
  name: 'Test Wingtra',
  sensorWidthMm: '13.2',
  sensorHeightMm: '8.8',
  focalLengthMm: '8.8',
  imageWidthPx: '5472',
  imageHeightPx: '3648',
  minTriggerIntervalS: '1',
  speedMs: '15',
  flightTimePerBatteryMin: '55',
  usableBatteryShare: '0.8',
  isActive: 'true',
  ...overrides,
})

describe('reference drones', () => {
  test('every database starts with them, once, and a deleted one stays deleted', () => {
    const names = listDroneProfiles().map((d) => d.name)
    for (const drone of REFERENCE_DRONES) expect(names).toContain(drone.name)
    const mini = listDroneProfiles().find((d) => d.name === 'DJI Mini 4 Pro')!
    getDb().delete(droneProfiles).where(eq(droneProfiles.id, mini.id)).run()
    ensureReferenceDrones(getDb())
    expect(listDroneProfiles().map((d) => d.name)).not.toContain('DJI Mini 4 Pro')
    expect(listDroneProfiles().filter((d) => d.name === 'DJI Phantom 4 RTK')).toHaveLength(1)
  })
})

describe('admin drone dialogs', () => {
  test('only an admin opens them', async () => {
    const client = await signedInUser('client')
    const res = await callRoute(droneNew.loader, '/admin/drones/new', { headers: headersOf(client.token) })
    expect([302, 403, 404]).toContain(res.status)
    const created = await callRoute(droneNew.action, '/admin/drones/new', {
      headers: headersOf(client.token),
      form: form(),
    })
    expect(created.status).not.toBe(200)
    expect(listDroneProfiles().some((d) => d.name === 'Test Wingtra')).toBe(false)
  })

  test('create, edit, deactivate and delete, each audited', async () => {
    const admin = await signedInUser('admin')
    const created = await callRoute(droneNew.action, '/admin/drones/new', {
      headers: headersOf(admin.token),
      form: form(),
    })
    expect(created.status).toBe(302)
    expect(created.headers.get('Location')).toBe('/admin?tab=settings')
    const drone = listDroneProfiles().find((d) => d.name === 'Test Wingtra')!
    expect(drone).toMatchObject({ imageWidthPx: 5472, speedMs: 15, usableBatteryShare: 0.8, isActive: true })

    const edited = await callRoute(droneEdit.action, `/admin/drones/${drone.id}`, {
      headers: headersOf(admin.token),
      params: { droneId: String(drone.id) },
      form: form({ speedMs: '12' }),
    })
    expect(edited.status).toBe(302)

    const toggled = await callRoute(adminPage.action, '/admin', {
      headers: headersOf(admin.token),
      form: {
        intent: 'admin-drone-active',
        id: String(drone.id),
        isActive: 'false',
        returnTo: '/admin?tab=settings',
      },
    })
    expect(toggled.status).toBe(302)
    expect(listDroneProfiles({ activeOnly: true }).some((d) => d.id === drone.id)).toBe(false)
    expect(listDroneProfiles().find((d) => d.id === drone.id)).toMatchObject({ speedMs: 12, isActive: false })

    const deleted = await callRoute(droneDelete.action, `/admin/drones/${drone.id}/delete`, {
      headers: headersOf(admin.token),
      params: { droneId: String(drone.id) },
    })
    expect(deleted.status).toBe(302)
    expect(listDroneProfiles().some((d) => d.id === drone.id)).toBe(false)
    const actions = getDb()
      .select()
      .from(auditLog)
      .where(eq(auditLog.entityType, 'drone_profile'))
      .all()
      .map((a) => a.action)
    expect(actions).toEqual(['drone.create', 'drone.update', 'drone.deactivate', 'drone.delete'])
  })

  test('bad input and a duplicate name are refused with the field errors', async () => {
    const admin = await signedInUser('admin')
    const bad = await callRoute(droneNew.action, '/admin/drones/new', {
      headers: headersOf(admin.token),
      form: form({ name: 'Bad', focalLengthMm: '', usableBatteryShare: '1.5' }),
    })
    expect(bad.status).toBe(400)
    const body = (await bad.json()) as { result: { error: Record<string, string[]> } }
    expect(body.result.error.focalLengthMm).toEqual(['Focal length is required'])
    expect(body.result.error.usableBatteryShare).toEqual(['Usable battery share must be between 0 and 1'])

    const duplicate = await callRoute(droneNew.action, '/admin/drones/new', {
      headers: headersOf(admin.token),
      form: form({ name: 'DJI Phantom 4 RTK' }),
    })
    expect(duplicate.status).toBe(409)
    expect(
      ((await duplicate.json()) as { result: { error: Record<string, string[]> } }).result.error.name,
    ).toEqual(['A drone profile with this name already exists'])

    const missing = await callRoute(droneEdit.loader, '/admin/drones/99999', {
      headers: headersOf(admin.token),
      params: { droneId: '99999' },
    })
    expect(missing.status).toBe(404)
  })
})
