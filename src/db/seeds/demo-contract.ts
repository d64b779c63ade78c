// The contract of the demo content (version 1 of a new database): plain pt-BR, every clause
// the enrolment summary promises, with the placeholders of features/enrolment/contract.ts.

// One element a line of the text, long lines cut into pieces joined again: the text is stored
// exactly as written.
export const DEMO_CONTRACT = [
  'CONTRATO DE PRESTAÇÃO DE SERVIÇOS DE ACADEMIA',
  '',
  'CONTRATADA: {{razao_social}}, CNPJ {{cnpj}}, com sede em {{endereco_empresa}}, que opera a ' +
    'unidade {{unidade}} da rede {{marca}}.',
  'CONTRATANTE: {{aluno}}, CPF {{cpf}}. Responsável (quando menor de 18 anos): {{responsavel}}.',
  '',
  '1. OBJETO. A CONTRATADA oferece ao CONTRATANTE o uso da unidade {{unidade}} conforme o plano ' +
    '{{plano}}, nos horários de funcionamento publicados no site.',
  '',
  '2. PREÇO. Mensalidade de {{mensalidade}}, com vencimento todo dia {{dia_vencimento}}. Taxa de ' +
    'matrícula de {{taxa_matricula}}, paga uma vez. Taxa anual de manutenção de {{taxa_anual}}, com ' +
    'vencimento em {{mes_taxa_anual}}.',
  '',
  '3. PRAZO. O contrato vale por prazo indeterminado, com prazo mínimo (fidelidade) de ' + '{{fidelidade}} meses.',
  '',
  '4. DIREITO DE ARREPENDIMENTO. Contratado pela internet, o CONTRATANTE pode desistir em até 7 ' +
    '(sete) dias corridos da aceitação, pelo próprio site, em "Minha matrícula", com devolução ' +
    'integral de tudo o que pagou, taxas incluídas (Código de Defesa do Consumidor, art. 49).',
  '',
  '5. CANCELAMENTO. Após esse prazo, o CONTRATANTE pode cancelar a qualquer momento pelo site, em ' +
    '"Minha matrícula", recebendo um número de protocolo. O cancelamento vale ao fim do período já ' +
    'pago. Se ainda restarem meses do prazo mínimo, é devida multa de {{multa}}% da mensalidade por ' +
    'mês restante, mostrada antes da confirmação.',
  '',
  '6. DADOS PESSOAIS. Os dados informados são usados para esta matrícula, a cobrança e o acesso à ' +
    'unidade, conforme a política de privacidade publicada no site.',
  '',
].join('\n');
