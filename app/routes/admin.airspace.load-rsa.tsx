import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node'
import { readFormBody } from '#app/domain/http/form-body.server.ts'
import { json } from '@remix-run/node'
import { Form, useNavigation } from '@remix-run/react'
import { LOAD_RSA_CONFIRM } from '#app/components/dashboard/admin/airspace-tab.tsx'
import { AdminDialog, DialogActions } from '#app/components/dashboard/admin/ui.tsx'
import { StatusButton } from '#app/components/ui/status-button.tsx'
import { loadRsaAirspaceByAdmin } from '#app/domain/admin/airspace-admin.server.ts'
import { requireRole } from '#app/domain/auth/guards.server.ts'
import { redirectWithToast } from '#app/domain/http/toast.server.ts'

const BACK = '/admin?tab=airspace'

export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, 'admin')
  return json({})
}

export async function action({ request }: ActionFunctionArgs) {
  const admin = await requireRole(request, 'admin')
  await readFormBody(request)
  try {
    const { inserted } = await loadRsaAirspaceByAdmin(admin.id)
    return redirectWithToast(BACK, { title: 'RSA Airspace Data Loaded', description: `${inserted} zones loaded.` })
  } catch (error) {
    console.error('[admin] loading RSA airspace failed', error)
    return redirectWithToast(BACK, { type: 'error', title: 'Load Failed', description: 'Failed to load RSA airspace data' })
  }
}

/** The confirmation without JavaScript (with it, the tab asks with confirm()). */
export default function LoadRsaDialog() {
  const navigation = useNavigation()
  return (
    <AdminDialog title="Load RSA airspace data" closeTo={BACK}>
      <p className="text-sm text-ink-700">{LOAD_RSA_CONFIRM}</p>
      <p className="mt-2 text-xs text-ink-500">Source: XCSoar / SA gliding community, derived from AIP South Africa (SACAA/ATNS), 2018. Not for navigation.</p>
      <Form method="post">
        <DialogActions closeTo={BACK}>
          <StatusButton pending={navigation.state === 'submitting'} pendingLabel="Loading…">
            Load RSA data
          </StatusButton>
        </DialogActions>
      </Form>
    </AdminDialog>
  )
}

export { AdminDialogErrorBoundary as ErrorBoundary } from '#app/components/dashboard/admin/ui.tsx'
