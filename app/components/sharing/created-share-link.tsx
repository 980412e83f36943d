/** A new share link, shown once: the URL as text (selectable without JavaScript) and a Copy button with it. */
import { useHydrated } from '#app/components/ui/use-hydrated.ts'
import { formatDate } from '#app/lib/format/dates.ts'
import { useState } from 'react'

export function CreatedShareLink({
  created,
}: {
  created: { url: string; expiresAt: string; allowDownload: boolean }
}) {
  const hydrated = useHydrated()
  const [copied, setCopied] = useState(false)
  return (
    <div
      className="mt-5 space-y-2 rounded-lg border border-emerald-200 bg-emerald-50 p-4"
      role="status"
      data-testid="created-share-link"
    >
      <p className="text-sm font-semibold text-emerald-900">
        Your new link ({created.allowDownload ? 'view and download' : 'view only'}, until{' '}
        {formatDate(created.expiresAt)})
      </p>
      <p className="text-sm text-emerald-900">Copy it now: for your security it is not shown again.</p>
      <div className="flex flex-col gap-2 sm:flex-row">
        <label htmlFor="created-share-url" className="sr-only">
          Share link
        </label>
        <input
          id="created-share-url"
          readOnly
          value={created.url}
          className="input font-mono text-xs"
          data-testid="created-share-url"
          onFocus={(event) => event.currentTarget.select()}
        />
        {hydrated ? (
          <button
            type="button"
            className="btn-secondary btn-sm shrink-0"
            onClick={() => {
              void navigator.clipboard?.writeText(created.url).then(() => setCopied(true))
            }}
          >
            {copied ? 'Copied' : 'Copy link'}
          </button>
        ) : null}
      </div>
    </div>
  )
}
