import { describe, expect, it } from 'vitest'

import { toastReducer, type ToastMessage } from './toast-state.ts'

const created: ToastMessage = { id: 'a1', title: 'Hub Created', type: 'success' }
const updated: ToastMessage = { id: 'b2', title: 'Hub Updated', type: 'success' }

describe('toastReducer', () => {
  it('shows a new toast in place of the one still showing', () => {
    expect(toastReducer(created, { type: 'show', toast: updated })).toBe(updated)
  })

  it("leaves the newer toast when the older one's timer or ✕ fires late", () => {
    const shown = toastReducer(created, { type: 'show', toast: updated })
    expect(toastReducer(shown, { type: 'hide', id: created.id })).toBe(updated)
  })

  it('hides the toast its own timer or ✕ was for', () => {
    expect(toastReducer(updated, { type: 'hide', id: updated.id })).toBeNull()
    expect(toastReducer(null, { type: 'hide', id: updated.id })).toBeNull()
  })
})
