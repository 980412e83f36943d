/** Which toast the layout shows: the newest raised replaces the one shown; hiding names the toast it hides. */
export interface ToastMessage {
  id: string
  title: string
  description?: string
  type: 'success' | 'error' | 'info'
}

export type ToastEvent = { type: 'show'; toast: ToastMessage } | { type: 'hide'; id: string }

export function toastReducer(shown: ToastMessage | null, event: ToastEvent): ToastMessage | null {
  if (event.type === 'show') return event.toast
  // An older toast's timer (or ✕) must not hide the toast that replaced it.
  return shown?.id === event.id ? null : shown
}
