import { json, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { AppShell, DashboardHeading } from '#app/components/layout/app-shell.tsx'
import { requireRole } from '#app/domain/auth/guards.server.ts'
import { getEnv, isDemo, isProduction } from '#app/lib/config/env.server.ts'
import { formatDate } from '#app/lib/format/dates.ts'
import { listOutbox } from '#app/lib/mail/mail.server.ts'

export const meta: MetaFunction = () => [{ title: 'Mail outbox (development) · Kestrel Aerial Survey' }]

/**
 * Development only: the e-mails the app wrote to the local outbox because no SMTP_URL
 * is set (reset links, contact enquiries, …). Also in the local demo (`npm run demo`,
 * a production build with the demo seed) for admins only; a real production deployment
 * answers 404.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  if (isProduction()) {
    if (!isDemo()) throw new Response('Not Found', { status: 404 })
    // A demo may be reachable by others, and the outbox holds password-reset links.
    await requireRole(request, 'admin')
  }
  const env = getEnv()
  return json({ messages: await listOutbox(), smtp: Boolean(env.SMTP_URL), dir: env.MAIL_OUTBOX_DIR })
}

export default function DevOutbox() {
  const { messages, smtp, dir } = useLoaderData<typeof loader>()
  return (
    <AppShell>
      <main className="mx-auto max-w-5xl space-y-6 px-4 py-8 sm:px-6">
        <DashboardHeading
          title="Mail outbox"
          subtitle={`Development only. Messages written to ${dir}, newest first.`}
        />
        {smtp ? (
          <p className="rounded-lg border border-sky-200 bg-sky-50 px-4 py-3 text-sm text-sky-800">
            SMTP_URL is set: new mail goes to the SMTP server, not here.
          </p>
        ) : null}
        {messages.length === 0 ? (
          <p className="card p-8 text-center text-ink-500">No messages yet.</p>
        ) : (
          <ul className="space-y-4">
            {messages.map((m) => (
              <li key={m.id} className="card overflow-hidden">
                <details>
                  <summary className="flex cursor-pointer flex-col gap-1 px-5 py-4 hover:bg-ink-50 sm:flex-row sm:items-center sm:justify-between">
                    <span className="font-semibold text-ink-900">{m.subject}</span>
                    <span className="text-xs text-ink-500">
                      to {m.to} · {formatDate(m.createdAt, { withTime: true })}
                    </span>
                  </summary>
                  <pre className="whitespace-pre-wrap break-words border-t border-ink-100 bg-ink-50 px-5 py-4 text-sm text-ink-800">
                    <Linkified text={m.text} />
                  </pre>
                </details>
              </li>
            ))}
          </ul>
        )}
      </main>
    </AppShell>
  )
}

/** Makes the links in a plain-text e-mail clickable (reset links, mostly). */
function Linkified({ text }: { text: string }) {
  const parts = text.split(/(https?:\/\/\S+)/g)
  return (
    <>
      {parts.map((part, i) =>
        /^https?:\/\//.test(part) ? (
          <a key={i} href={part} className="link break-all">
            {part}
          </a>
        ) : (
          part
        ),
      )}
    </>
  )
}
