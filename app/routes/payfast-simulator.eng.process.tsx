/**
 * The PayFast simulator's payment page (PAYFAST_MODE=simulator only; 404 otherwise).
 * The checkout form posts here exactly as it would to PayFast's `/eng/process`.
 */
import { json, redirect, type ActionFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, useActionData } from '@remix-run/react'
import { Spinner } from '#app/components/ui/status-button.tsx'
import { usePendingFormData } from '#app/components/ui/use-is-pending.ts'
import {
  assertSimulatorEnabled,
  safeGatewayRedirect,
  sendSimulatedItn,
  verifyCheckoutPost,
} from '#app/domain/payments/simulator.server.ts'
import { formatRand } from '#app/lib/format/numbers.ts'
import { readFormBody } from '#app/lib/http/form-body.server.ts'
import type { ReactNode } from 'react'

export const meta: MetaFunction = () => [{ title: 'PayFast (simulator) · Secure payment' }]

const ACTION_FIELD = '_simulator_action'

export async function loader() {
  assertSimulatorEnabled()
  // PayFast answers a bare GET of /eng/process with an error page too.
  return json({ errors: ['No payment data was received.'] as string[] }, { status: 400 })
}

export async function action({ request }: ActionFunctionArgs) {
  assertSimulatorEnabled()
  const form = await readFormBody(request)
  const body = new URLSearchParams()
  for (const [key, value] of form) if (typeof value === 'string') body.append(key, value)
  const choice = body.get(ACTION_FIELD)
  const pairs = [...body.entries()].filter(([k]) => k !== ACTION_FIELD)
  const verdict = verifyCheckoutPost(pairs)
  if (!verdict.ok) return json({ errors: verdict.errors }, { status: 400 })
  const { fields, amountCents } = verdict.checkout
  if (choice === 'cancel') return redirect(safeGatewayRedirect(fields.cancel_url, '/'))
  if (choice === 'pay') {
    const itn = await sendSimulatedItn(verdict.checkout)
    if (!itn.sent) console.warn(`[payfast-simulator] ITN not delivered: ${itn.detail}`)
    return redirect(safeGatewayRedirect(fields.return_url, '/'))
  }
  return json({
    payment: {
      merchant: 'Kestrel Aerial Survey',
      itemName: fields.item_name ?? '',
      itemDescription: fields.item_description ?? '',
      reference: fields.m_payment_id ?? '',
      amountCents,
      email: fields.email_address ?? '',
    },
    pairs,
  })
}

/** Pay or Cancel: the button's value tells the action which one the visitor chose. */
function ChoiceButton({
  value,
  disabled,
  className,
  children,
}: {
  value: 'pay' | 'cancel'
  disabled: boolean
  className: string
  children: ReactNode
}) {
  return (
    <button type="submit" name={ACTION_FIELD} value={value} className={className} disabled={disabled}>
      {children}
    </button>
  )
}

export default function PayfastSimulatorPage() {
  const data = useActionData<typeof action>()
  const busy = usePendingFormData()?.get(ACTION_FIELD) ?? null
  return (
    <div className="min-h-screen bg-slate-100">
      <div
        role="status"
        data-testid="test-mode-banner"
        className="bg-amber-400 px-4 py-1.5 text-center text-xs font-bold tracking-wide text-ink-950"
      >
        TEST MODE — no real money: this is the PayFast simulator and nothing is charged.
      </div>
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-xl items-center justify-between px-4 py-4">
          <p className="text-xl font-extrabold tracking-tight text-[#1a3a6b]">
            Pay<span className="text-[#e0312f]">Fast</span>{' '}
            <span className="text-sm font-medium text-slate-500">simulator</span>
          </p>
          <p className="flex items-center gap-1.5 text-xs font-medium text-slate-500">
            <svg aria-hidden="true" viewBox="0 0 20 20" className="h-4 w-4 fill-current">
              <path d="M10 2a4 4 0 0 0-4 4v2H5a1 1 0 0 0-1 1v8a1 1 0 0 0 1 1h10a1 1 0 0 0 1-1V9a1 1 0 0 0-1-1h-1V6a4 4 0 0 0-4-4Zm-2 6V6a2 2 0 1 1 4 0v2H8Z" />
            </svg>
            Secure payment
          </p>
        </div>
      </header>
      <main className="mx-auto max-w-xl px-4 py-8">
        {data && 'payment' in data ? (
          <section
            className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm"
            aria-labelledby="sim-heading"
          >
            <h1 id="sim-heading" className="text-lg font-semibold text-slate-900">
              Pay {data.payment.merchant}
            </h1>
            <dl className="mt-4 divide-y divide-slate-100 text-sm">
              <div className="flex justify-between gap-4 py-2">
                <dt className="text-slate-500">Item</dt>
                <dd className="text-right font-medium text-slate-900">{data.payment.itemName}</dd>
              </div>
              {data.payment.itemDescription ? (
                <div className="flex justify-between gap-4 py-2">
                  <dt className="text-slate-500">Description</dt>
                  <dd className="text-right text-slate-700">{data.payment.itemDescription}</dd>
                </div>
              ) : null}
              <div className="flex justify-between gap-4 py-2">
                <dt className="text-slate-500">Reference</dt>
                <dd className="font-mono text-xs text-slate-700">{data.payment.reference}</dd>
              </div>
              <div className="flex items-baseline justify-between gap-4 py-3">
                <dt className="text-slate-500">Amount</dt>
                <dd className="text-2xl font-bold text-slate-900" data-testid="simulator-amount">
                  {formatRand(data.payment.amountCents)}
                </dd>
              </div>
            </dl>
            <p className="mt-2 rounded-lg bg-slate-50 px-3 py-2 text-xs text-slate-600">
              Simulated card payment. 'Pay' completes it and PayFast notifies the merchant; 'Cancel' returns
              you without paying.
            </p>
            <Form
              method="post"
              reloadDocument
              className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end"
            >
              {data.pairs.map(([k, v]) => (
                <input key={k} type="hidden" name={k} value={v} />
              ))}
              <ChoiceButton value="cancel" disabled={Boolean(busy)} className="btn-secondary">
                Cancel
              </ChoiceButton>
              <ChoiceButton
                value="pay"
                disabled={Boolean(busy)}
                className="btn bg-[#1a3a6b] text-white hover:bg-[#244b88]"
              >
                {busy === 'pay' ? <Spinner /> : null}
                Pay {formatRand(data.payment.amountCents)}
              </ChoiceButton>
            </Form>
          </section>
        ) : (
          <section role="alert" className="rounded-2xl border border-red-200 bg-white p-6 shadow-sm">
            <h1 className="text-lg font-semibold text-red-700">Payment could not be processed</h1>
            <p className="mt-1 text-sm text-slate-600">The merchant's payment request was not valid:</p>
            <ul className="mt-3 list-disc space-y-1 pl-5 text-sm text-slate-800">
              {(data && 'errors' in data ? data.errors : ['No payment data was received.']).map((e) => (
                <li key={e}>{e}</li>
              ))}
            </ul>
          </section>
        )}
      </main>
    </div>
  )
}
