/**
 * South African trust journeys, with and without JavaScript: the privacy
 * notice before sign-up, download my data, cancel → refund → credit note, delete my account.
 */
import { expect, test } from '@playwright/test'
import { strFromU8, unzipSync } from 'fflate'

import { pdfText } from '../helpers/pdf-text.ts'
import { registerClientViaApi } from './accounts-fixtures.ts'
import { createQuotedProjectViaApi, payViaApi } from './checkout-fixtures.ts'
import { DEMO_PASSWORD, signIn } from './fixtures.ts'

test('registration shows the privacy notice first and an unticked marketing opt-in; /privacy names the Information Officer and the Regulator', async ({
  page,
}) => {
  await page.goto('/register')
  await expect(page.getByTestId('privacy-note')).toContainText('Before you give us your details')
  await expect(page.getByRole('checkbox', { name: /news and offers/ })).not.toBeChecked()
  await page.getByTestId('privacy-note').getByRole('link', { name: 'Privacy notice' }).click()
  await expect(page).toHaveURL(/\/privacy$/)
  await expect(page.getByRole('heading', { name: 'Privacy notice', level: 1 })).toBeVisible()
  await expect(page.getByTestId('information-officer')).toContainText('privacy@kestrel.example')
  await expect(page.getByTestId('regulator-contact')).toContainText('Information Regulator')
  await expect(
    page.getByRole('contentinfo').getByRole('link', { name: 'Privacy notice (POPIA)' }),
  ).toBeVisible()
})

test(
  'a client downloads their data, cancels a paid project, the admin refunds and the credit note is issued; then the client deletes the account',
  { tag: '@no-js' },
  async ({ page, request, browser }) => {
    // A long journey (pay, cancel, refund, delete) across two sessions.
    test.setTimeout(180_000)
    const client = await registerClientViaApi(request, 'trust-pass-1')
    const project = await createQuotedProjectViaApi(request, undefined, client)
    await payViaApi(request, project, client, {
      vatNumber: '4987654321',
      billingAddress: '1 Dock Road, Cape Town, 8001',
    })
    await signIn(page, client.email, client.password)

    // Download my data: the ZIP has this client's project and no one else's.
    await page.goto('/dashboard?tab=profile')
    const link = page.getByTestId('download-my-data')
    await expect(link).toHaveAttribute('href', '/api/account/export')
    const zip = await page.request.get('/api/account/export')
    expect(zip.headers()['content-type']).toBe('application/zip')
    const data = JSON.parse(strFromU8(unzipSync(new Uint8Array(await zip.body()))['data.json']!))
    expect(data.projects.map((p: { name: string }) => p.name)).toEqual([project.name])

    // Cancel within the cooling-off days: full refund.
    await page.goto('/dashboard?tab=projects')
    await expect(page.getByTestId('cancel-project').first()).toHaveAttribute(
      'href',
      `/projects/${project.id}/cancel`,
    )
    await page.goto(`/projects/${project.id}/cancel`)
    await expect(page.getByRole('heading', { name: `Cancel ${project.name}?` })).toBeVisible()
    await expect(page.getByTestId('refund-amount')).toContainText(',')
    await page.getByRole('button', { name: 'Cancel project and request refund' }).click()
    await expect(page).toHaveURL(/\/dashboard\?tab=projects/)

    // The admin records the PayFast refund: the credit note is issued.
    const adminContext = await browser.newContext({
      javaScriptEnabled: test.info().project.use.javaScriptEnabled,
    })
    const admin = await adminContext.newPage()
    await signIn(admin, 'admin@example.com', DEMO_PASSWORD)
    await admin.goto('/admin?tab=compliance')
    const row = admin.getByTestId('refunds').getByRole('row').filter({ hasText: project.name })
    await row.getByLabel('PayFast refund reference').fill('PF-REFUND-E2E')
    await row.getByRole('button', { name: 'Confirm refund' }).click()
    const creditNote = admin
      .getByTestId('refunds')
      .getByRole('row')
      .filter({ hasText: project.name })
      .getByRole('link', { name: /Credit note CN-\d{6}/ })
    await expect(creditNote).toBeVisible()
    const pdf = await admin.request.get((await creditNote.getAttribute('href'))!)
    expect(pdf.status()).toBe(200)
    expect(pdf.headers()['content-type']).toBe('application/pdf')
    await adminContext.close()

    // The client's Invoices tab: the tax invoice carries the VAT number and billing address,
    // and the credit note that credits it is listed with its PDF.
    await page.goto('/dashboard?tab=invoices')
    const taxInvoiceLink = page.getByRole('link', { name: /^Tax invoice PDF / }).first()
    const taxInvoice = await page.request.get((await taxInvoiceLink.getAttribute('href'))!)
    expect(taxInvoice.status()).toBe(200)
    const taxText = await pdfText(new Uint8Array(await taxInvoice.body()))
    expect(taxText).toContain('4987654321')
    expect(taxText).toContain('1 Dock Road, Cape Town, 8001')
    const noteRow = page.getByTestId('credit-note-row').filter({ hasText: project.name })
    await expect(noteRow).toContainText(/Credit note CN-\d{6}/)
    await expect(noteRow).toContainText(/Credits tax invoice TI-\d{6}/)
    const noteLink = noteRow.getByRole('link', { name: /^Credit note PDF CN-\d{6}/ })
    const notePdf = await page.request.get((await noteLink.getAttribute('href'))!)
    expect(notePdf.status()).toBe(200)
    const noteText = await pdfText(new Uint8Array(await notePdf.body()))
    expect(noteText).toContain('Credit Note')
    expect(noteText).toContain('PF-REFUND-E2E')

    // Delete my account: a wrong password is refused, the right one signs out.
    await page.goto('/dashboard?tab=profile')
    await page.getByTestId('delete-my-account').click()
    await expect(page).toHaveURL(/\/account\/delete$/)
    await page.getByLabel('Your password').fill('wrong-password')
    await page.getByRole('button', { name: 'Delete my account' }).click()
    await expect(page.getByText('The password is not correct.')).toBeVisible()
    await page.getByLabel('Your password').fill(client.password)
    await page.getByRole('button', { name: 'Delete my account' }).click()
    await expect(page).toHaveURL(/\/$/)
    const again = await page.request.get('/api/account/export')
    expect(again.status()).toBe(401)
  },
)
