import { expect, test } from '@playwright/test'

import { waitForMail } from './fixtures.ts'

test('the landing page shows every section', async ({ page }) => {
  await page.goto('/')
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(
    /ELEVATE YOUR VIEW\.\s*EMPOWER YOUR INSIGHT/,
  )
  for (const id of ['home', 'about', 'services', 'contact']) {
    await expect(page.locator(`section#${id}`)).toHaveCount(1)
  }
  await expect(page.locator('#about')).toContainText('About Us')
  for (const card of ['Our Mission', 'Our Expertise', 'Our Commitment']) {
    await expect(page.getByRole('heading', { name: card })).toBeVisible()
  }
  const stats = page.getByTestId('about-stats')
  await expect(stats).toContainText('5+')
  // Thousands are grouped with a (non-breaking) space: '1 000+'.
  await expect(stats).toContainText(/1\s000\+/)
  await expect(stats).toContainText('50+')
  for (const service of [
    'Customized Survey & Mapping',
    'Transparent & Budget-Friendly Pricing',
    'Detailed Reports & Analysis',
  ]) {
    await expect(page.getByRole('heading', { name: service })).toBeVisible()
  }
  await expect(page.getByRole('heading', { name: 'Get started in just few clicks' })).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Explore your work' })).toBeVisible()
  for (const project of [
    'Agriculture Field Analysis',
    'Coastal Marina Survey',
    'Infrastructure Dock Analysis',
  ]) {
    await expect(page.getByRole('heading', { name: project })).toBeVisible()
  }
  await expect(page.getByRole('link', { name: 'View All Projects' })).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Our Partners' })).toBeVisible()
  await expect(page.getByText('ROC-ZA-0000-DEMO').first()).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Contact Us' })).toBeVisible()
  await expect(page.getByText('Cape Town, South Africa').first()).toBeVisible()
  await expect(page.getByTestId('regulatory-notice')).toContainText('Part 101')
  await expect(page.getByText(`© ${new Date().getFullYear()} Kestrel Aerial Survey`)).toBeVisible()

  // Visitors see Login and Register.
  const nav = page.getByRole('navigation', { name: 'Main' })
  await expect(nav.getByRole('link', { name: 'Login' })).toHaveAttribute('href', '/login')
  await expect(nav.getByRole('link', { name: 'Register' })).toHaveAttribute('href', '/register')
})

test('Explore Services goes to the Services section', async ({ page }) => {
  await page.goto('/')
  await page.getByRole('link', { name: 'Explore Services' }).click()
  await expect(page).toHaveURL(/#services$/)
  await expect(page.getByRole('heading', { name: 'Everything you need from the sky' })).toBeInViewport()
})

test('the landing page is sent without scripts; the next page hydrates as usual', async ({ page }) => {
  const scripts: string[] = []
  page.on('request', (req) => {
    if (req.resourceType() === 'script') scripts.push(req.url())
  })
  await page.goto('/')
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
  expect(await page.locator('script[type="module"], link[rel="modulepreload"]').count()).toBe(0)
  expect(scripts).toEqual([])
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Login' }).click()
  await expect(page).toHaveURL(/\/login$/)
  await expect(page.locator('html[data-hydrated]')).toHaveCount(1)
  expect(scripts.length).toBeGreaterThan(0)
})

test('opening /#contact scrolls to the contact section', async ({ page }) => {
  await page.goto('/#contact')
  await expect(page.getByRole('heading', { name: 'Contact Us' })).toBeInViewport()
})

test('the contact form sends the message to the operator', { tag: '@no-js' }, async ({ page }, testInfo) => {
  const name = `Visitor ${testInfo.project.name} ${Date.now()}`
  await page.goto('/#contact')
  const form = page.locator('#contact form')
  await form.getByLabel('Name').fill(name)
  await form.getByLabel('Email').fill('visitor@example.test')
  await form.getByLabel('Message').fill('Please quote a survey of 30 ha near Malmesbury.')
  await form.getByRole('button', { name: 'SEND MESSAGE' }).click()

  await expect(page.getByTestId('toast')).toContainText('Message sent successfully!')
  await expect(page.getByTestId('toast')).toContainText("We'll get back to you as soon as possible.")
  await expect(form.getByLabel('Name')).toHaveValue('')
  await expect(form.getByLabel('Message')).toHaveValue('')
  const mail = await waitForMail((m) => m.subject === `New enquiry from ${name}`)
  expect(mail.to).toEqual(['operations@kestrel.example'])
  expect(mail.text).toContain('Please quote a survey of 30 ha near Malmesbury.')
})

test('the contact form shows what is missing', async ({ page }) => {
  await page.goto('/#contact')
  const form = page.locator('#contact form')
  await form.getByLabel('Name').fill('Half done')
  await form.getByLabel('Email').fill('half@example.test')
  // Without JavaScript the browser's own "required" check would stop the post; skip it to reach the server.
  await form.evaluate((f: HTMLFormElement) => (f.noValidate = true)).catch(() => undefined)
  await form.getByRole('button', { name: 'SEND MESSAGE' }).click()
  await expect(page.getByText('Message is required')).toBeVisible()
  // The answer lands on the form (without JavaScript: the page reloads at #contact), typing kept.
  await expect(form.getByRole('button', { name: 'SEND MESSAGE' })).toBeInViewport()
  await expect(form.getByLabel('Name')).toHaveValue('Half done')
  await expect(form.getByLabel('Email')).toHaveValue('half@example.test')
})

test('a contact error reloads the page at the form', { tag: '@no-js-only' }, async ({ page }) => {
  await page.goto('/')
  const form = page.locator('#contact form')
  await form.evaluate((f: HTMLFormElement) => (f.noValidate = true))
  await form.getByLabel('Name').fill('No message')
  await form.getByRole('button', { name: 'SEND MESSAGE' }).click()
  await expect(page).toHaveURL(/#contact$/)
  await expect(page.getByText('Message is required')).toBeInViewport()
  await expect(form.getByLabel('Name')).toHaveValue('No message')
})

test(
  'the navigation bar stays readable once scrolled, with or without JavaScript',
  { tag: '@no-js' },
  async ({ page }) => {
    await page.goto('/')
    const login = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Login' })
    await expect(login).toHaveCSS('color', 'rgb(255, 255, 255)')
    await page.mouse.wheel(0, 1500)
    // Over the white sections the links turn dark on a light bar.
    await expect(login).toBeInViewport()
    await expect.poll(() => login.evaluate((el) => getComputedStyle(el).color)).not.toBe('rgb(255, 255, 255)')
    const header = page.locator('header')
    await expect
      .poll(() => header.evaluate((el) => getComputedStyle(el).backgroundColor))
      .not.toBe('rgba(0, 0, 0, 0)')
  },
)

test('the legal page lists the company details and policies', async ({ page }) => {
  await page.goto('/legal#cancellation')
  await expect(page.getByRole('heading', { name: 'Company information', exact: true })).toBeVisible()
  await expect(page.getByText('2024/123456/07', { exact: true })).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Privacy notice (POPIA)' })).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Cancellation & refund policy' })).toBeVisible()
  await expect(page.getByText('less a 15% administration fee')).toBeVisible()
})
