import { describe, expect, test } from 'vitest'

import { pdfResponse } from './pdf-response.server.ts'

describe('pdfResponse', () => {
  test('a PDF download: its type, a private answer and a name that cannot break the header', async () => {
    const response = pdfResponse(new TextEncoder().encode('%PDF-1.7'), 'Report "Süd" 1.pdf')
    expect(response.headers.get('Content-Type')).toBe('application/pdf')
    expect(response.headers.get('Cache-Control')).toBe('private, no-store')
    expect(response.headers.get('Content-Disposition')).toBe(
      `attachment; filename="Report _S_d_ 1.pdf"; filename*=UTF-8''Report%20%22S%C3%BCd%22%201.pdf`,
    )
    expect(await response.text()).toBe('%PDF-1.7')
    const inline = pdfResponse(new Uint8Array(1), 'form.pdf', {
      disposition: 'inline',
      cacheControl: 'public',
    })
    expect(inline.headers.get('Content-Disposition')).toMatch(/^inline; filename="form.pdf"/)
    expect(inline.headers.get('Cache-Control')).toBe('public')
  })
})
