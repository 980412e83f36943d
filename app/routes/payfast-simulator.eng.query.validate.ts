/** The PayFast simulator's server confirmation (`/eng/query/validate`); simulator mode only. */
import type { ActionFunctionArgs } from '@remix-run/node'
import { assertSimulatorEnabled, validateIssuedNotification } from '#app/domain/payments/simulator.server.ts'

export async function loader() {
  assertSimulatorEnabled()
  return new Response('Method not allowed', { status: 405, headers: { Allow: 'POST' } })
}

export async function action({ request }: ActionFunctionArgs) {
  assertSimulatorEnabled()
  const answer = validateIssuedNotification(await request.text())
  return new Response(answer, { status: 200, headers: { 'Content-Type': 'text/plain' } })
}
