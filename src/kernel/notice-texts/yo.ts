import type { NoticeTexts } from './types.js';

/** Yoruba notification wordings (issue 29), written once: the service words push, e-mail and SMS with them and the app's inbox (web/src/locales/notices-yo.ts) reads the same object. */
export const yo = {
  notice: {
    topup_credited: { title: 'A fi owó sí àpamọ́wọ́', body: 'A ti fi {{amount}} kún àpamọ́wọ́ rẹ.' },
    purchase_delivered: { title: 'A ti fi {{service}} ránṣẹ́', body: '{{service}} {{amount}} rẹ fún {{recipient}} ti dé.' },
    purchase_delivered_token: {
      title: 'A ti fi {{service}} ránṣẹ́',
      body: '{{service}} {{amount}} rẹ fún {{recipient}} ti dé. Token: {{token}}',
    },
    purchase_failed: { title: 'Ríra kò ṣeé ṣe', body: '{{service}} {{amount}} rẹ fún {{recipient}} kò ṣeé ṣe.' },
    purchase_refunded: {
      title: 'Ríra kò ṣeé ṣe: a dá owó padà',
      body: '{{service}} {{amount}} rẹ fún {{recipient}} kò ṣeé ṣe; {{amount}} ti padà sínú àpamọ́wọ́ rẹ.',
    },
    transfer_sent: { title: 'A ti fi owó ránṣẹ́', body: 'O fi {{amount}} ránṣẹ́ sí @{{to}}.' },
    transfer_received: { title: 'O gba owó', body: 'O gba {{amount}} láti ọ̀dọ̀ {{from}}.' },
    transfer_received_note: { title: 'O gba owó', body: 'O gba {{amount}} láti ọ̀dọ̀ {{from}}. Àkọsílẹ̀: {{note}}' },
    kyc_approved: { title: 'A fọwọ́ sí ìjẹ́rìísí', body: 'A ti fọwọ́ sí ìjẹ́rìísí ìpele {{tier}} rẹ.' },
    kyc_rejected: {
      title: 'A kò fọwọ́ sí ìjẹ́rìísí',
      body: 'A kò fọwọ́ sí ìjẹ́rìísí ìpele {{tier}} rẹ: {{reason}}. O lè fi ránṣẹ́ lẹ́ẹ̀kan sí i.',
    },
    login_new_sign_in: {
      title: 'Ẹnìkan wọlé sí àkáǹtì rẹ',
      body: 'Ẹnìkan wọlé pẹ̀lú {{browser}} lórí {{os}}, {{when}} (àkókò Èkó). Tí kì í bá ṣe ìwọ, wọlé kí o yí àwọn PIN rẹ padà, kí o sì kàn sí ìrànlọ́wọ́.',
    },
    login_new_sign_in_town: {
      title: 'Ẹnìkan wọlé sí àkáǹtì rẹ',
      body: 'Ẹnìkan wọlé pẹ̀lú {{browser}} lórí {{os}} nítòsí {{town}}, {{when}} (àkókò Èkó). Tí kì í bá ṣe ìwọ, wọlé kí o yí àwọn PIN rẹ padà, kí o sì kàn sí ìrànlọ́wọ́.',
    },
    login_failures: {
      title: 'Ìgbìyànjú wíwọlé tí kò yọrí',
      body: 'Ìgbìyànjú wíwọlé {{failures}} tí kò yọrí ló wà lórí àkáǹtì rẹ ní ìṣẹ́jú 15 sẹ́yìn. Tí kì í bá ṣe ìwọ, pa àwọn PIN àti kóòdù rẹ mọ́; o lè yí PIN wíwọlé rẹ padà nínú Ètò.',
    },
    login_credential: {
      title: 'Ààbò: {{change}}',
      body: '{{change}} lórí àkáǹtì rẹ ní {{when}} (àkókò Èkó). Tí kì í bá ṣe ìwọ, lo ọ̀nà àsopọ̀ "kì í ṣe èmi" nínú ímeèlì tí a fi ránṣẹ́ sí ọ nípa ìyípadà yìí, láàrin ọjọ́ 7: yóò mú ọ jáde níbi gbogbo, yóò sì dá àwọn ètò wíwọlé tí a yí padà sípò.',
    },
    login_reset_requested: {
      title: 'Ààbò: a béèrè àtúntò ìjẹ́rìísí ìgbésẹ̀ méjì',
      body: 'A béèrè àtúntò ìjẹ́rìísí ìgbésẹ̀ méjì ní {{when}} (àkókò Èkó). A ó pa á ní {{resetAt}} (àkókò Èkó) àyàfi tí a bá fagi lé àtúntò náà pẹ̀lú kóòdù tí a fi ránṣẹ́ sí ímeèlì rẹ. Tí kì í bá ṣe ìwọ, lo ọ̀nà àsopọ̀ "kì í ṣe èmi" nínú ímeèlì tí a fi ránṣẹ́ sí ọ, láàrin ọjọ́ 7.',
    },
    login_signed_out: {
      title: 'Ààbò: a mú ọ jáde níbi gbogbo',
      body: 'O sọ pé kì í ṣe ìwọ ló ṣe ìyípadà kan. A mú gbogbo ìgbà wíwọlé jáde, a sì pa wíwọlé pẹ̀lú PIN. Wọlé padà pẹ̀lú kóòdù tí a fi ránṣẹ́ sí ímeèlì rẹ, lẹ́yìn náà ṣàyẹ̀wò àwọn PIN rẹ àti ètò ìjẹ́rìísí ìgbésẹ̀ méjì.',
    },
    login_signed_out_removal: {
      title: 'Ààbò: a mú ọ jáde níbi gbogbo',
      body: 'O sọ pé kì í ṣe ìwọ ló ṣe ìyípadà kan. A mú gbogbo ìgbà wíwọlé jáde, a sì pa wíwọlé pẹ̀lú PIN. A ó yọ áàpù ìjẹ́rìísí kúrò lórí àkáǹtì rẹ ní {{removalAt}} (àkókò Èkó); tí ìwọ fúnra rẹ bá ṣètò rẹ̀, wọlé kí o fagi lé yíyọ náà pẹ̀lú kóòdù láti inú áàpù náà.',
    },
    login_removal_cancelled: {
      title: 'Ààbò: áàpù ìjẹ́rìísí rẹ yóò dúró',
      body: 'A tẹ kóòdù láti inú áàpù ìjẹ́rìísí rẹ, nítorí náà a fagi lé yíyọ rẹ̀ tí a ti ṣètò. Tí kì í bá ṣe ìwọ, kàn sí ìrànlọ́wọ́.',
    },
    support_reply: { title: 'Ìrànlọ́wọ́ ti fèsì', body: '{{text}}' },
    savings_matured: { title: 'Ìfipamọ́ tí o tì ti pé', body: '{{total}} (èlé {{interest}}) ti padà sínú àpamọ́wọ́ rẹ.' },
    loan_repaid: { title: 'A ti san gbèsè', body: 'O ti san gbèsè rẹ tán pátápátá. O ṣé o!' },
    loan_due_soon: {
      title: 'Àkókò sísan gbèsè ti sún mọ́',
      body: 'O máa san {{outstanding}} ní {{dueDate}}. A ó gbà á láti inú àpamọ́wọ́ rẹ lọ́jọ́ náà.',
    },
    loan_overdue: {
      title: 'Àkókò sísan gbèsè ti kọjá',
      body: 'Àkókò sísan gbèsè rẹ ti kọjá: {{outstanding}} ló kù. Owó tí o bá fi sínú àpamọ́wọ́ rẹ yóò san án fúnra rẹ̀.',
    },
    loan_overdue_fee: {
      title: 'Àkókò sísan gbèsè ti kọjá',
      body: 'Àkókò sísan gbèsè rẹ ti kọjá: {{outstanding}} ló kù, pẹ̀lú owó ìtanràn ìpẹ́ {{lateFee}}. Owó tí o bá fi sínú àpamọ́wọ́ rẹ yóò san án fúnra rẹ̀.',
    },
    loan_still_overdue: {
      title: 'Gbèsè ṣì wà lọ́rùn rẹ',
      body: '{{outstanding}} ṣì kù. Owó tí o bá fi sínú àpamọ́wọ́ rẹ yóò san án fúnra rẹ̀, tàbí san án báyìí.',
    },
    referral_unlocked: { title: 'Ẹ̀bùn ìpè ọ̀rẹ́ ti ṣí', body: '{{amount}} ẹ̀bùn ìpè ọ̀rẹ́ ti wà nínú àpamọ́wọ́ rẹ báyìí.' },
    referral_milestone: {
      title: 'O dé ìpele ìpè ọ̀rẹ́',
      body: 'Ọ̀rẹ́ {{threshold}} ti darapọ̀, wọ́n sì rà pẹ̀lú kóòdù rẹ: a fi {{amount}} kún ẹ̀bùn ìpè ọ̀rẹ́ rẹ.',
    },
    schedule_failed: { title: 'Ríra tí a ṣètò kò ṣeé ṣe', body: '{{service}} tí o ṣètò fún {{phone}} kò lọ.' },
    schedule_paused: {
      title: 'Ríra tí a ṣètò kò ṣeé ṣe',
      body: '{{service}} tí o ṣètò fún {{phone}} kò lọ. A dá ètò náà dúró lẹ́yìn ìkùnà {{failures}} ní tẹ̀léntẹ̀lé; tún un bẹ̀rẹ̀ nígbà tí a bá ti ṣàtúnṣe.',
    },
    report_resolved: { title: 'A ti yanjú ìjábọ̀ rẹ', body: '{{text}}' },
    order_fulfilled: { title: 'A ti parí ọjà', body: 'A ti parí ọjà {{reference}} rẹ.' },
    order_refunded: {
      title: 'A kò lè parí ọjà',
      body: 'A kò lè parí ọjà {{reference}} rẹ; a ti dá owó náà padà sínú àpamọ́wọ́ rẹ.',
    },
    wallet_credited: { title: 'A ṣàtúnṣe àpamọ́wọ́', body: 'Òṣìṣẹ́ kan fi {{amount}} kún un: {{reason}}' },
    wallet_debited: { title: 'A ṣàtúnṣe àpamọ́wọ́', body: 'Òṣìṣẹ́ kan yọ {{amount}}: {{reason}}' },
    account_frozen: {
      title: 'A dá àkáǹtì rẹ dúró fún ìgbà díẹ̀',
      body: 'A dá ìsanwó láti inú àpamọ́wọ́ rẹ dúró nígbà tí a ń ṣàyẹ̀wò àkáǹtì rẹ. O ṣì lè wọlé kí o rí ohun gbogbo. Kàn sí ìrànlọ́wọ́ láti mọ̀ sí i.',
    },
    account_unfrozen: {
      title: 'Àkáǹtì rẹ ti ń ṣiṣẹ́ padà',
      body: 'A ti gbé ìdádúró kúrò lórí àkáǹtì rẹ: ìsanwó àti ríra tí a ṣètò ti ń ṣiṣẹ́ padà.',
    },
    airtime_cash_credited: {
      title: 'A ti sọ káàdì ìpè di owó',
      body: 'A ti fi {{amount}} sí àpamọ́wọ́ rẹ fún káàdì ìpè {{received}} tí ó dé.',
    },
    airtime_cash_partial: {
      title: 'A ti sọ apá kan káàdì ìpè di owó',
      body: '{{received}} nìkan nínú káàdì ìpè {{expected}} ló dé; a ti fi {{amount}} sí àpamọ́wọ́ rẹ.',
    },
    airtime_cash_closed: {
      title: 'A ti pa ìbéèrè káàdì ìpè sí owó dé',
      body: 'Kò sí káàdì ìpè láti inú ìbéèrè {{expected}} rẹ tí ó dé ọ̀dọ̀ wa, nítorí náà kò sí ohun tí ó wọlé.',
    },
    flight_cancelled: {
      title: 'A ti fagilé ọkọ̀ òfurufú: a ti dá owó padà',
      body: 'A ti fagilé ìrìn ọkọ̀ òfurufú rẹ {{route}}; {{amount}} ti padà sí àpamọ́wọ́ rẹ (owó ìfagilé tíkẹ́ẹ̀tì náà jẹ́ {{fee}}).',
    },
    withdrawal_paid: {
      title: 'A ti san owó tí o gbà',
      body: 'A ti fi {{amount}} ránṣẹ́ sí {{name}}, {{bank}}.',
    },
    withdrawal_refunded: {
      title: 'Gbígba owó kò yọrí: a ti dá a padà',
      body: 'Gbígba {{amount}} sí {{bank}} kò yọrí; {{total}} ti padà sínú àpamọ́wọ́ rẹ.',
    },
  },
  noticeChange: {
    login_pin_set: 'A ṣètò PIN wíwọlé',
    login_pin_changed: 'A yí PIN wíwọlé rẹ padà',
    login_pin_disabled: 'A pa wíwọlé pẹ̀lú PIN',
    transaction_pin_set: 'A ṣètò PIN ìdúnàádúrà',
    transaction_pin_changed: 'A yí PIN ìdúnàádúrà rẹ padà',
    totp_enrolled: 'A ṣètò áàpù ìjẹ́rìísí',
    totp_removed: 'A pa ìjẹ́rìísí ìgbésẹ̀ méjì',
    totp_reset_requested: 'A béèrè àtúntò ìjẹ́rìísí ìgbésẹ̀ méjì',
    totp_reset_done: 'A ti tún ìjẹ́rìísí ìgbésẹ̀ méjì ṣe',
    phone_changed: 'A yí nọ́mbà fóònù rẹ padà',
    passkey_added: 'A fi passkey kún àkáǹtì rẹ',
    passkey_removed: 'A yọ passkey kúrò nínú àkáǹtì rẹ',
    recovery_code_used: 'A lo kóòdù ìmúpadàbọ̀sípò láti wọlé',
    recovery_codes_regenerated: 'A ṣe àwọn kóòdù ìmúpadàbọ̀sípò tuntun (àwọn àtijọ́ kò ṣiṣẹ́ mọ́)',
  },
} satisfies NoticeTexts;
