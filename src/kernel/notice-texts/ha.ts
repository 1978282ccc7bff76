import type { NoticeTexts } from './types.js';

/** Hausa notification wordings (issue 29), written once: the service words push, e-mail and SMS with them and the app's inbox (web/src/locales/notices-ha.ts) reads the same object. */
export const ha = {
  notice: {
    topup_credited: { title: 'An saka kuɗi a walat', body: 'An ƙara {{amount}} a walat ɗinka.' },
    purchase_delivered: { title: 'An kawo {{service}}', body: 'An kawo {{service}} na {{amount}} don {{recipient}}.' },
    purchase_delivered_token: {
      title: 'An kawo {{service}}',
      body: 'An kawo {{service}} na {{amount}} don {{recipient}}. Token: {{token}}',
    },
    purchase_failed: { title: 'Saye bai yi nasara ba', body: '{{service}} na {{amount}} don {{recipient}} bai yi nasara ba.' },
    purchase_refunded: {
      title: 'Saye bai yi nasara ba: an mayar da kuɗi',
      body: '{{service}} na {{amount}} don {{recipient}} bai yi nasara ba; {{amount}} ya dawo walat ɗinka.',
    },
    transfer_sent: { title: 'An tura kuɗi', body: 'Ka tura {{amount}} zuwa @{{to}}.' },
    transfer_received: { title: 'Ka karɓi kuɗi', body: 'Ka karɓi {{amount}} daga {{from}}.' },
    transfer_received_note: { title: 'Ka karɓi kuɗi', body: 'Ka karɓi {{amount}} daga {{from}}. Saƙo: {{note}}' },
    kyc_approved: { title: 'An amince da tabbatarwa', body: 'An amince da tabbatarwarka ta mataki na {{tier}}.' },
    kyc_rejected: {
      title: 'Ba a amince da tabbatarwa ba',
      body: 'Ba a amince da tabbatarwarka ta mataki na {{tier}} ba: {{reason}}. Kana iya sake turawa.',
    },
    login_new_sign_in: {
      title: 'Sabon shiga asusunka',
      body: 'Sabon shiga ta {{browser}} a {{os}}, {{when}} (lokacin Legas). Idan ba kai ba ne, shiga ka canza PIN ɗinka, ka kuma tuntuɓi tallafi.',
    },
    login_new_sign_in_town: {
      title: 'Sabon shiga asusunka',
      body: 'Sabon shiga ta {{browser}} a {{os}} kusa da {{town}}, {{when}} (lokacin Legas). Idan ba kai ba ne, shiga ka canza PIN ɗinka, ka kuma tuntuɓi tallafi.',
    },
    login_failures: {
      title: 'Ƙoƙarin shiga da bai yi nasara ba',
      body: 'An yi ƙoƙarin shiga asusunka sau {{failures}} ba tare da nasara ba cikin mintuna 15 da suka wuce. Idan ba kai ba ne, ka ɓoye PIN da lambobinka; kana iya canza PIN na shiga a Saituna.',
    },
    login_credential: {
      title: 'Tsaro: {{change}}',
      body: '{{change}} a asusunka a {{when}} (lokacin Legas). Idan ba kai ba ne, yi amfani da mahaɗin "ba ni ba ne" a imel ɗin da muka aiko maka game da wannan canji, cikin kwanaki 7: zai fitar da kai ko’ina ya kuma mayar da saitunan shiga da aka canza.',
    },
    login_reset_requested: {
      title: 'Tsaro: an nemi sake saita tabbatarwa mataki biyu',
      body: 'An nemi sake saita tabbatarwa mataki biyu a {{when}} (lokacin Legas). Za a kashe ta a {{resetAt}} (lokacin Legas) sai dai idan an soke da lambar da aka aiko zuwa imel ɗinka. Idan ba kai ba ne, yi amfani da mahaɗin "ba ni ba ne" a imel ɗin da muka aiko maka, cikin kwanaki 7.',
    },
    login_signed_out: {
      title: 'Tsaro: an fitar da kai ko’ina',
      body: 'Ka ce ba kai ka yi wani canji ba. An fitar da duk zaman shiga kuma an kashe shiga da PIN. Sake shiga da lambar da aka aiko zuwa imel ɗinka, sannan ka duba PIN ɗinka da saitunan tabbatarwa mataki biyu.',
    },
    login_signed_out_removal: {
      title: 'Tsaro: an fitar da kai ko’ina',
      body: 'Ka ce ba kai ka yi wani canji ba. An fitar da duk zaman shiga kuma an kashe shiga da PIN. Za a cire manhajar tabbatarwa daga asusunka a {{removalAt}} (lokacin Legas); idan kai ne ka saita ta, shiga ka soke cirewar da lamba daga wannan manhajar.',
    },
    login_removal_cancelled: {
      title: 'Tsaro: manhajar tabbatarwarka za ta zauna',
      body: 'An shigar da lamba daga manhajar tabbatarwarka, don haka an soke cire ta da aka tsara. Idan ba kai ba ne, tuntuɓi tallafi.',
    },
    support_reply: { title: 'Tallafi ya amsa', body: '{{text}}' },
    savings_matured: { title: 'Ajiyar da aka kulle ta cika', body: '{{total}} (riba {{interest}}) ya dawo walat ɗinka.' },
    loan_repaid: { title: 'An biya bashi', body: 'An biya bashinka gaba ɗaya. Mun gode!' },
    loan_due_soon: {
      title: 'Bashi ya kusa cika lokaci',
      body: 'Za a biya {{outstanding}} a ranar {{dueDate}}. Za mu karɓa daga walat ɗinka a ranar.',
    },
    loan_overdue: {
      title: 'Lokacin biyan bashi ya wuce',
      body: 'Lokacin biyan bashinka ya wuce: {{outstanding}} ya rage. Kuɗin da ka saka a walat zai biya shi kai tsaye.',
    },
    loan_overdue_fee: {
      title: 'Lokacin biyan bashi ya wuce',
      body: 'Lokacin biyan bashinka ya wuce: {{outstanding}} ya rage, tare da tarar jinkiri ta {{lateFee}}. Kuɗin da ka saka a walat zai biya shi kai tsaye.',
    },
    loan_still_overdue: {
      title: 'Har yanzu ba a biya bashi ba',
      body: '{{outstanding}} ya rage har yanzu. Kuɗin da ka saka a walat zai biya shi kai tsaye, ko ka biya yanzu.',
    },
    referral_unlocked: { title: 'An buɗe kyautar gayyata', body: '{{amount}} na kyautar gayyata yana cikin walat ɗinka yanzu.' },
    referral_milestone: {
      title: 'Ka kai matakin gayyata',
      body: 'Abokai {{threshold}} sun shiga sun saya ta lambarka: an ƙara {{amount}} a kyautar gayyatarka.',
    },
    schedule_failed: { title: 'Sayen da aka tsara bai yi nasara ba', body: '{{service}} da ka tsara don {{phone}} bai tafi ba.' },
    schedule_paused: {
      title: 'Sayen da aka tsara bai yi nasara ba',
      body: '{{service}} da ka tsara don {{phone}} bai tafi ba. An dakatar da tsarin bayan kasawa {{failures}} a jere; ci gaba da shi idan an gyara.',
    },
    report_resolved: { title: 'An warware rahotonka', body: '{{text}}' },
    order_fulfilled: { title: 'An kammala oda', body: 'An kammala odarka {{reference}}.' },
    order_refunded: {
      title: 'Ba a kammala oda ba',
      body: 'Ba a iya kammala odarka {{reference}} ba; an mayar da kuɗin zuwa walat ɗinka.',
    },
    wallet_credited: { title: 'An daidaita walat', body: 'Ma’aikaci ya ƙara {{amount}}: {{reason}}' },
    wallet_debited: { title: 'An daidaita walat', body: 'Ma’aikaci ya cire {{amount}}: {{reason}}' },
    account_frozen: {
      title: 'An dakatar da asusunka na ɗan lokaci',
      body: 'An dakatar da biyan kuɗi daga walat ɗinka yayin da muke duba asusunka. Kana iya shiga ka ga komai. Tuntuɓi tallafi don ƙarin bayani.',
    },
    account_unfrozen: {
      title: 'Asusunka ya dawo aiki',
      body: 'An cire dakatarwar asusunka: biyan kuɗi da sayayyar da aka tsara sun dawo aiki.',
    },
    airtime_cash_credited: {
      title: 'An mayar da kati kuɗi',
      body: 'An saka {{amount}} a walat ɗinka saboda katin {{received}} da ya iso.',
    },
    airtime_cash_partial: {
      title: 'An mayar da wani sashe na kati kuɗi',
      body: '{{received}} ne kawai cikin katin {{expected}} ya iso; an saka {{amount}} a walat ɗinka.',
    },
    airtime_cash_closed: {
      title: 'An rufe buƙatar kati zuwa kuɗi',
      body: 'Babu katin buƙatarka ta {{expected}} da ya iso mana, don haka ba a saka komai ba.',
    },
    flight_cancelled: {
      title: 'An soke tikitin jirgi: an mayar da kuɗi',
      body: 'An soke tikitin jirginka {{route}}; {{amount}} ya dawo cikin walat ɗinka (kuɗin soke tikitin shi ne {{fee}}).',
    },
    withdrawal_paid: {
      title: 'An biya kuɗin da aka cire',
      body: 'An tura {{amount}} zuwa {{name}}, {{bank}}.',
    },
    withdrawal_refunded: {
      title: 'Cire kuɗi bai yi nasara ba: an mayar',
      body: 'Cire {{amount}} zuwa {{bank}} bai yi nasara ba; {{total}} ya dawo cikin walat ɗinka.',
    },
  },
  noticeChange: {
    login_pin_set: 'An saita PIN na shiga',
    login_pin_changed: 'An canza PIN ɗinka na shiga',
    login_pin_disabled: 'An kashe shiga da PIN',
    transaction_pin_set: "An saita PIN na ma'amala",
    transaction_pin_changed: "An canza PIN ɗinka na ma'amala",
    totp_enrolled: 'An saita manhajar tabbatarwa',
    totp_removed: 'An kashe tabbatarwa mataki biyu',
    totp_reset_requested: 'An nemi sake saita tabbatarwa mataki biyu',
    totp_reset_done: 'An sake saita tabbatarwa mataki biyu',
    phone_changed: 'An canza lambar wayarka',
    passkey_added: 'An ƙara passkey a asusunka',
    passkey_removed: 'An cire passkey daga asusunka',
    recovery_code_used: 'An yi amfani da lambar dawo da shiga don shiga',
    recovery_codes_regenerated: 'An yi sababbin lambobin dawo da shiga (tsofaffin ba sa aiki kuma)',
  },
} satisfies NoticeTexts;
