import { useState } from 'react'

/** Shown once after registration (the server already cleared it); dismissible. */
export function WelcomeBanner({ message }: { message: string | null }) {
  const [open, setOpen] = useState(true)
  if (!message || !open) return null
  return (
    <div
      role="status"
      data-testid="welcome-banner"
      className="flex items-start gap-3 rounded-xl border border-emerald-200 bg-emerald-50 px-4 py-3 text-emerald-900"
    >
      <p className="flex-1 text-sm font-medium">{message}</p>
      <button
        type="button"
        onClick={() => setOpen(false)}
        className="rounded p-1 text-emerald-800 hover:bg-emerald-100"
        aria-label="Dismiss welcome message"
      >
        ✕
      </button>
    </div>
  )
}
