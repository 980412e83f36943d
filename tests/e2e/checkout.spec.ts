import fs from 'node:fs'
import { expect, test, type APIRequestContext, type Page } from '@playwright/test'

import { registerClientViaApi } from './accounts-fixtures.ts'
import { createQuotedProjectViaApi, DEMO_CLIENT_EMAIL, rand, replanViaApi } from './checkout-fixtures.ts'
import { DEMO_PASSWORD, signIn, waitForMail } from './fixtures.ts'

async function acceptTermsAndGoToGateway(
  page: Page,
  projectId: number,
  quoteAmount: number,
  { viaDashboard = false } = {},
) {
  if (viaDashboard) {
    // The project's 'Pay Now' on My Projects leads to the review step.
    await page.goto('/dashboard?tab=projects')
    await page.locator(`a[href="/checkout/${projectId}"]`).filter({ hasText: 'Pay Now' }).first().click()
    await expect(page).toHaveURL(new RegExp(`/checkout/${projectId}$`))
  } else {
    await page.goto(`/checkout/${projectId}`)
  }
  await expect(page.getByRole('heading', { name: 'Review your order' })).toBeVisible()
  await expect(page.getByTestId('test-mode-banner')).toContainText('TEST MODE — no real money')
  await expect(page.getByTestId('checkout-total')).toHaveText(rand(quoteAmount))
  await expect(page.getByRole('link', { name: 'Edit flight plan' }).first()).toHaveAttribute(
    'href',
    `/flight-planner?projectId=${projectId}`,
  )

  await page.getByRole('button', { name: 'Accept terms & pay' }).click()
  const dialog = page.getByRole('dialog', { name: 'Terms and Conditions' })
  await expect(dialog).toBeVisible()
  await expect(dialog.getByRole('heading', { name: '6. Cancellation and refunds' })).toBeVisible()
  const agree = dialog.getByRole('checkbox', { name: /I Agree/ })
  await expect(agree).not.toBeChecked()

  // Not ticked: the product's message, nothing sent anywhere.
  await dialog.getByRole('button', { name: 'Accept & Pay' }).click()
  await expect(page.getByText('Please accept the terms and conditions to proceed.')).toBeVisible()
  await expect(page).toHaveURL(new RegExp(`/checkout/${projectId}`))

  await page
    .getByRole('dialog', { name: 'Terms and Conditions' })
    .getByRole('checkbox', { name: /I Agree/ })
    .check()
  await page
    .getByRole('dialog', { name: 'Terms and Conditions' })
    .getByRole('button', { name: 'Accept & Pay' })
    .click()

  if (test.info().project.use.javaScriptEnabled === false) {
    // Without JavaScript the signed form is a button away.
    await page.getByRole('button', { name: 'Continue to secure payment' }).click()
  }
  await expect(page).toHaveURL(/\/payfast-simulator\/eng\/process$/)
  await expect(page.getByTestId('simulator-amount')).toHaveText(rand(quoteAmount))
  await expect(page.getByTestId('test-mode-banner')).toContainText('TEST MODE — no real money')
}

/** A new quoted project of the demo client, who signs in, accepts the terms and reaches the gateway. */
async function newProjectAtGateway(
  page: Page,
  request: APIRequestContext,
  options?: { viaDashboard?: boolean },
) {
  const project = await createQuotedProjectViaApi(request)
  await signIn(page, DEMO_CLIENT_EMAIL, DEMO_PASSWORD)
  await acceptTermsAndGoToGateway(page, project.id, project.quoteAmount, options)
  return project
}

/** The payment attempt the gateway's signed form carries. */
function gatewayPaymentId(page: Page) {
  return page.locator('input[name="m_payment_id"]').first().inputValue()
}

test(
  'draft → quote → terms → simulator Pay → confirmed; the dashboard shows the paid invoice and its PDF',
  { tag: '@no-js' },
  async ({ page, request }) => {
    const project = await newProjectAtGateway(page, request, { viaDashboard: true })
    await page.getByRole('button', { name: /^Pay / }).click()

    await expect(page).toHaveURL(/\/payment-success\?m_payment_id=KAS-/)
    await expect(page.getByRole('heading', { name: 'Payment Confirmed' })).toBeVisible()
    await expect(page.getByText('Your project has been updated and approved for processing.')).toBeVisible()
    await expect(page.getByTestId('test-mode-banner')).toContainText('TEST MODE — no real money')

    await waitForMail((m) => m.subject === `Payment received: ${project.name}`)
    await waitForMail((m) => m.subject === `New paid project awaiting a pilot: ${project.name}`)

    await page.goto('/dashboard?tab=invoices')
    await expect(page.getByRole('heading', { name: 'Invoices & Quotes' })).toBeVisible()
    const row = page.getByTestId('invoice-row').filter({ hasText: project.name })
    await expect(row).toContainText(rand(project.quoteAmount))
    await expect(row.getByText('Paid', { exact: true })).toBeVisible()
    await expect(page.getByText('Total Spent').locator('..')).not.toContainText('R 0,00')

    await row.getByRole('link', { name: /View invoice/ }).click()
    const dialog = page.getByRole('dialog')
    await expect(dialog).toContainText(project.name)
    await expect(dialog).toContainText('Payment transaction ID')
    await expect(dialog).toContainText('Terms and conditions')
    await expect(dialog).toContainText('Paid date')

    const downloadPromise = page.waitForEvent('download')
    await dialog.getByRole('link', { name: 'Download tax invoice (PDF)' }).click()
    const download = await downloadPromise
    expect(download.suggestedFilename()).toMatch(/^tax-invoice-TI-\d{6}\.pdf$/)
    const file = await download.path()
    expect(fs.readFileSync(file).subarray(0, 5).toString()).toBe('%PDF-')

    // The project shows as paid on its card, with no 'Pay Now' any more.
    await page.goto('/dashboard?tab=projects')
    await expect(page.getByText('Paid - Awaiting pilot assignment').first()).toBeVisible()
    await expect(page.locator(`a[href="/checkout/${project.id}"]`)).toHaveCount(0)
  },
)

test('cancelling at the gateway keeps the project unpaid and offers the way back', async ({
  page,
  request,
}) => {
  const project = await newProjectAtGateway(page, request)
  await page.getByRole('button', { name: 'Cancel' }).click()

  await expect(page).toHaveURL(/\/payment-cancelled\?m_payment_id=KAS-/)
  await expect(page.getByRole('heading', { name: 'Payment Cancelled' })).toBeVisible()
  await expect(page.getByText(/No charges were made/)).toBeVisible()
  await expect(page.getByTestId('test-mode-banner')).toContainText('TEST MODE — no real money')
  await expect(page.getByRole('link', { name: 'Back to Dashboard' })).toBeVisible()
  await expect(page.getByRole('link', { name: 'Continue to Flight Planner' })).toHaveAttribute(
    'href',
    `/flight-planner?projectId=${project.id}`,
  )

  await page.getByRole('link', { name: 'Back to Dashboard' }).click()
  await page.goto('/dashboard?tab=invoices')
  const row = page.getByTestId('invoice-row').filter({ hasText: project.name })
  await expect(row.getByText('Pending', { exact: true })).toBeVisible()
  await expect(row.getByRole('link', { name: /Tax invoice PDF/ })).toHaveCount(0)
})

test('re-planning after accepting the terms: paying the old form is recorded and flagged, never marks the project paid', async ({
  page,
  request,
  browser,
}) => {
  const project = await newProjectAtGateway(page, request)
  const replanned = await replanViaApi(request, project.id)
  expect(replanned.quoteAmount).toBeGreaterThan(project.quoteAmount * 20)

  // The old PayFast form, for the old amount, is completed anyway.
  await page.getByRole('button', { name: /^Pay / }).click()
  await expect(page).toHaveURL(/\/payment-success\?m_payment_id=KAS-/)
  await expect(page.getByRole('heading', { name: 'Payment received for an old quote' })).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Payment Confirmed' })).toHaveCount(0)
  await page.goto(`/checkout/${project.id}`)
  await expect(page.getByTestId('checkout-total')).toHaveText(rand(replanned.quoteAmount))

  const admin = await browser.newPage()
  await signIn(admin, 'admin@example.com', DEMO_PASSWORD)
  await admin.goto('/admin?tab=financial')
  const flagged = admin.getByTestId('flagged-payments').getByRole('row').filter({ hasText: project.name })
  await expect(flagged).toContainText('payment for a superseded quote — refund or re-quote')
  await expect(flagged).toContainText(rand(project.quoteAmount))
  await admin.close()
})

test('the success page with a forged status in the URL does not confirm anything', async ({
  page,
  request,
}) => {
  // A payment attempt exists, but PayFast never notified us about it.
  const project = await newProjectAtGateway(page, request)
  const mPaymentId = await gatewayPaymentId(page)
  await page.goto(`/payment-success?m_payment_id=${mPaymentId}&pf_payment_id=1&payment_status=COMPLETE`)
  await expect(page.getByRole('heading', { name: /Processing your payment/ })).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Payment Confirmed' })).toHaveCount(0)
  await page.goto('/dashboard?tab=invoices')
  await expect(
    page.getByTestId('invoice-row').filter({ hasText: project.name }).getByText('Pending', { exact: true }),
  ).toBeVisible()
})

test('the success page waits for the notification and updates itself when it lands', async ({
  page,
  context,
  request,
}) => {
  await newProjectAtGateway(page, request)
  const mPaymentId = await gatewayPaymentId(page)

  // A second tab on the return page before PayFast has said anything.
  const waiting = await context.newPage()
  await waiting.goto(`/payment-success?m_payment_id=${mPaymentId}`)
  await expect(waiting.getByRole('heading', { name: /Processing your payment/ })).toBeVisible()

  await page.getByRole('button', { name: /^Pay / }).click()
  await expect(page.getByRole('heading', { name: 'Payment Confirmed' })).toBeVisible()
  // The waiting tab polls and turns to the result without a reload.
  await expect(waiting.getByRole('heading', { name: 'Payment Confirmed' })).toBeVisible()
  await expect(waiting.getByText('You will be taken to your dashboard in 15 seconds.')).toBeVisible()
})

test(
  'a quote over R 5 000,00 asks for the billing address at the review step, in the page’s own words, and saves it to the profile',
  { tag: '@no-js' },
  async ({ page, request }) => {
    const client = await registerClientViaApi(request, 'billing-pass-1')
    const small = await createQuotedProjectViaApi(request, undefined, client)
    const project = await replanViaApi(request, small.id, undefined, client)
    expect(project.quoteAmount).toBeGreaterThan(500_000)
    await signIn(page, client.email, client.password)
    await page.goto(`/checkout/${project.id}`)
    // Step 1 asks for it, with the order, before any terms.
    const address = page.getByRole('textbox', { name: 'Billing address' })
    await expect(address).toBeVisible()
    await expect(
      page.getByText('Required: a tax invoice over R 5 000,00 carries your address.'),
    ).toBeVisible()
    // The page's own error, never the browser's bubble (no `required` attribute).
    await expect(address).not.toHaveAttribute('required')
    await page.getByRole('button', { name: 'Accept terms & pay' }).click()
    await expect(
      page.getByText('A billing address is required for a tax invoice over R 5 000,00'),
    ).toBeVisible()
    await expect(address).toHaveAttribute('aria-invalid', 'true')
    await expect(page.getByRole('dialog', { name: 'Terms and Conditions' })).toHaveCount(0)

    await address.fill('5 Kloof Street, Cape Town, 8001')
    await page.getByRole('button', { name: 'Accept terms & pay' }).click()
    const dialog = page.getByRole('dialog', { name: 'Terms and Conditions' })
    await expect(dialog.getByTestId('terms-billing')).toContainText('5 Kloof Street, Cape Town, 8001')
    await dialog.getByRole('checkbox', { name: /I Agree/ }).check()
    await dialog.getByRole('button', { name: 'Accept & Pay' }).click()
    if (test.info().project.use.javaScriptEnabled === false) {
      await page.getByRole('button', { name: 'Continue to secure payment' }).click()
    }
    await expect(page).toHaveURL(/\/payfast-simulator\/eng\/process$/)
    await expect(page.getByTestId('simulator-amount')).toHaveText(rand(project.quoteAmount))

    await page.goto('/dashboard?tab=profile')
    await expect(page.getByLabel('Billing address (optional)')).toHaveValue('5 Kloof Street, Cape Town, 8001')
  },
)
