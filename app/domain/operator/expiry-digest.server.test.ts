import { createTestUser } from '#tests/factories.ts'
import { withTestSmtp } from '#tests/helpers/smtp-server.ts'
import { describe, expect, test } from 'vitest'

import { sendExpiryDigest } from './operator-documents.server.ts'

const smtp = withTestSmtp()
const digests = () => smtp.messages.filter((m) => m.subject.startsWith('SACAA documents:'))

describe('the SACAA expiry mail', () => {
  test('goes out once per day however often the server starts, and again the next day', async () => {
    await createTestUser({ role: 'pilot' }) // no RPL or medical on record: needs attention
    const first = await sendExpiryDigest('2027-03-01')
    expect(first).toMatchObject({ sent: true, alreadySent: false })
    // Two more starts the same day (each runs the daily jobs).
    expect(await sendExpiryDigest('2027-03-01')).toMatchObject({ sent: false, alreadySent: true })
    expect(await sendExpiryDigest('2027-03-01')).toMatchObject({ sent: false, alreadySent: true })
    await smtp.waitFor((m) => m.subject.startsWith('SACAA documents:'))
    expect(digests()).toHaveLength(1)

    expect(await sendExpiryDigest('2027-03-02')).toMatchObject({ sent: true })
    await smtp.waitFor(() => digests().length === 2)
    // A clock set back does not send the earlier day again.
    expect(await sendExpiryDigest('2027-03-01')).toMatchObject({ alreadySent: true })
    expect(digests()).toHaveLength(2)
  })
})
