// A static list instead of a folder scan, so the bundled server and the CLI find the
// same migrations. Append new date-prefixed files here; never edit an applied one.
import type { Migration } from 'kysely';
import * as m20261122T0130 from './2026-11-22T0130_initial';
import * as m20261122T0200 from './2026-11-22T0200_auditoria';
import * as m20261123T0200 from './2026-11-23T0200_cliques_cta';
import * as m20261123T0300 from './2026-11-23T0300_identity';
import * as m20261123T0400 from './2026-11-23T0400_infra';
import * as m20261123T0500 from './2026-11-23T0500_arquivos';
import * as m20261123T0600 from './2026-11-23T0600_envios';
import * as m20261123T0700 from './2026-11-23T0700_unidade_fotos';
import * as m20261123T0800 from './2026-11-23T0800_fale_aqui_contato';
import * as m20261123T0810 from './2026-11-23T0810_fale_aqui_atendimento';
import * as m20261123T0820 from './2026-11-23T0820_respostas_tratadas';
import * as m20261123T0830 from './2026-11-23T0830_resumo_semanal';
import * as m20261123T0840 from './2026-11-23T0840_respostas_origem';
import * as m20261123T0900 from './2026-11-23T0900_aulas_experimentais';
import * as m20261124T1040 from './2026-11-24T1040_unidade_fotos_arquivos';
import * as m20261125T0900 from './2026-11-25T0900_envios_impressao';
import * as m20261127T0400 from './2026-11-27T0400_webhooks';
import * as m20261127T0500 from './2026-11-27T0500_tarefas_agendadas';
import * as m20261127T0300 from './2026-11-27T0300_consentimentos_incidentes';
import * as m20261127T0200 from './2026-11-27T0200_privacidade';
import * as m20261127T0100 from './2026-11-27T0100_agregados_nps';
import * as m20261127T0600 from './2026-11-27T0600_retencao_indices';
import * as m20261127T0700 from './2026-11-27T0700_fale_aqui_lista';
import * as m20261128T0100 from './2026-11-28T0100_matriculas';
import * as m20261128T0200 from './2026-11-28T0200_matriculas_ativacao';
import * as m20261129T0500 from './2026-11-29T0500_pagamentos_asaas';
import * as m20261129T0610 from './2026-11-29T0610_agregados_cliques';
import * as m20261129T0620 from './2026-11-29T0620_fale_aqui_status_id';
import * as m20261129T0630 from './2026-11-29T0630_aulas_experimentais_funil';
import * as m20261129T0700 from './2026-11-29T0700_agregados_agendamentos';
import * as m20261129T0800 from './2026-11-29T0800_matriculas_retencao';

export const migrations: Record<string, Migration> = {
  '2026-11-22T0130_initial': m20261122T0130,
  '2026-11-22T0200_auditoria': m20261122T0200,
  '2026-11-23T0200_cliques_cta': m20261123T0200,
  '2026-11-23T0300_identity': m20261123T0300,
  '2026-11-23T0400_infra': m20261123T0400,
  '2026-11-23T0500_arquivos': m20261123T0500,
  '2026-11-23T0600_envios': m20261123T0600,
  '2026-11-23T0700_unidade_fotos': m20261123T0700,
  '2026-11-23T0800_fale_aqui_contato': m20261123T0800,
  '2026-11-23T0810_fale_aqui_atendimento': m20261123T0810,
  '2026-11-23T0820_respostas_tratadas': m20261123T0820,
  '2026-11-23T0830_resumo_semanal': m20261123T0830,
  '2026-11-23T0840_respostas_origem': m20261123T0840,
  '2026-11-23T0900_aulas_experimentais': m20261123T0900,
  '2026-11-24T1040_unidade_fotos_arquivos': m20261124T1040,
  '2026-11-25T0900_envios_impressao': m20261125T0900,
  '2026-11-27T0400_webhooks': m20261127T0400,
  '2026-11-27T0500_tarefas_agendadas': m20261127T0500,
  '2026-11-27T0300_consentimentos_incidentes': m20261127T0300,
  '2026-11-27T0200_privacidade': m20261127T0200,
  '2026-11-27T0100_agregados_nps': m20261127T0100,
  '2026-11-27T0600_retencao_indices': m20261127T0600,
  '2026-11-27T0700_fale_aqui_lista': m20261127T0700,
  '2026-11-28T0100_matriculas': m20261128T0100,
  '2026-11-28T0200_matriculas_ativacao': m20261128T0200,
  '2026-11-29T0500_pagamentos_asaas': m20261129T0500,
  '2026-11-29T0610_agregados_cliques': m20261129T0610,
  '2026-11-29T0620_fale_aqui_status_id': m20261129T0620,
  '2026-11-29T0630_aulas_experimentais_funil': m20261129T0630,
  '2026-11-29T0700_agregados_agendamentos': m20261129T0700,
  '2026-11-29T0800_matriculas_retencao': m20261129T0800,
};
