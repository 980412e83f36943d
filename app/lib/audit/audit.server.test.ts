import { createTestUser } from '#tests/factories.ts'
import { describe, expect, test } from 'vitest'

import { listAuditLog, recordAudit } from './audit.server.ts'

describe('audit log', () => {
  test('records who, what and before/after without secrets, newest first', async () => {
    const admin = await createTestUser({ role: 'admin' })
    recordAudit({
      actorId: admin.id,
      action: 'hub.update',
      entityType: 'hub',
      entityId: 7,
      before: { name: 'Old' },
      after: { name: 'New' },
    })
    recordAudit({
      actorId: admin.id,
      action: 'user.create',
      entityType: 'user',
      entityId: 9,
      after: { email: 'x@y.z', passwordHash: 'secret-hash', password: 'pw' },
    })
    const { entries, total } = listAuditLog()
    expect(total).toBe(2)
    expect(entries[0]).toMatchObject({
      action: 'user.create',
      entityId: '9',
      actorEmail: admin.email,
      before: null,
    })
    expect(entries[0]!.after).toBe('{"email":"x@y.z"}')
    expect(entries[1]).toMatchObject({
      action: 'hub.update',
      before: '{"name":"Old"}',
      after: '{"name":"New"}',
    })
  })
})
