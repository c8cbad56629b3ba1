import { z } from 'zod';

const booleanFlag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

const emailList = z
  .string()
  .transform((value) =>
    value
      .split(',')
      .map((email) => email.trim().toLowerCase())
      .filter(Boolean),
  )
  .pipe(z.array(z.email()));

const environmentSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/ }).optional(),
  SMTP_URL: z.url({ protocol: /^smtps?$/ }).optional(),
  MAIL_FROM: z.string().min(3).default('Nail Art Atelier <shop@nail-art.example>'),
  SUPPORT_EMAIL: z.email().default('support@nail-art.example'),
  ADMIN_EMAILS: emailList.default([]),
  ORDER_NOTIFY_EMAILS: emailList.default([]),
  ORDER_NOTIFY_LANGUAGE: z.enum(['en', 'bg']).default('en'),
  STATUS_MAIL_DELAY_SECONDS: z.coerce.number().int().min(0).max(86_400).default(60),
  MAIL_CLAIM_SECONDS: z.coerce.number().int().min(1).max(3_600).default(300),
  SHOP_LEGAL_NAME: z.string().trim().min(1).max(200).default('Nail Art Atelier Ltd.'),
  SHOP_UIC: z.string().trim().min(1).max(40).default('000000000'),
  SHOP_VAT_NUMBER: z.string().trim().max(40).default(''),
  SHOP_ADDRESS: z.string().trim().min(1).max(300).default('1 Example Street, 1000 Sofia, Bulgaria'),
  SHOP_PHONE: z.string().trim().min(1).max(40).default('+359 2 000 0000'),
  SEED_DEMO: booleanFlag.default(true),
  TRUST_PROXY: booleanFlag.default(false),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export interface Config {
  nodeEnv: 'development' | 'production' | 'test';
  port: number;
  host: string;
  /** The shop's address without a trailing slash. */
  publicUrl: string;
  dataDir: string;
  databaseUrl: string | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  supportEmail: string;
  adminEmails: string[];
  /** Who hears of new orders; the admins when empty. */
  orderNotifyEmails: string[];
  /** The language of those notices. */
  orderNotifyLanguage: 'en' | 'bg';
  /** How long a status e-mail waits before it is sent, so that a status changed again replaces it. */
  statusMailDelaySeconds: number;
  /** How long a server process may take to send one e-mail before another process takes it over. */
  mailClaimSeconds: number;
  /** The seller as the legal pages name it. */
  seller: { legalName: string; uic: string; vatNumber: string; address: string; phone: string; email: string };
  seedDemo: boolean;
  /** Behind a reverse proxy, client addresses come from X-Forwarded-For. */
  trustProxy: boolean;
  logLevel: string;
}

export class ConfigError extends Error {}

/** Reads the configuration once at start; a bad value stops the server with a message naming the variable. */
export function loadConfig(environment: NodeJS.ProcessEnv = process.env): Config {
  const present = Object.fromEntries(Object.entries(environment).filter(([, value]) => value !== undefined && value !== ''));
  const parsed = environmentSchema.safeParse(present);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`).join('\n');
    throw new ConfigError(`Invalid environment configuration:\n${problems}`);
  }
  const env = parsed.data;
  return {
    nodeEnv: env.NODE_ENV,
    port: env.PORT,
    host: env.HOST,
    publicUrl: (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, ''),
    dataDir: env.DATA_DIR,
    databaseUrl: env.DATABASE_URL,
    smtpUrl: env.SMTP_URL,
    mailFrom: env.MAIL_FROM,
    supportEmail: env.SUPPORT_EMAIL,
    adminEmails: env.ADMIN_EMAILS,
    orderNotifyEmails: env.ORDER_NOTIFY_EMAILS,
    orderNotifyLanguage: env.ORDER_NOTIFY_LANGUAGE,
    statusMailDelaySeconds: env.STATUS_MAIL_DELAY_SECONDS,
    mailClaimSeconds: env.MAIL_CLAIM_SECONDS,
    seller: { legalName: env.SHOP_LEGAL_NAME, uic: env.SHOP_UIC, vatNumber: env.SHOP_VAT_NUMBER, address: env.SHOP_ADDRESS, phone: env.SHOP_PHONE, email: env.SUPPORT_EMAIL },
    seedDemo: env.SEED_DEMO,
    trustProxy: env.TRUST_PROXY,
    logLevel: env.LOG_LEVEL,
  };
}
