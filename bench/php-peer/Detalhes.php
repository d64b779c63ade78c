<?php
// The unit page as the old site made it: the same queries as the app's unit page (unit,
// hours, plans, areas, modalities, timetable) on every request, rendered to comparable HTML.
require __DIR__ . '/db.php';
$id = filter_var($_GET['id'] ?? '', FILTER_VALIDATE_INT, ['options' => ['min_range' => 1]]);
$q = fn (string $sql) => (function (array $args) use ($sql) {
    $st = db()->prepare($sql);
    $st->execute($args);
    return $st->fetchAll();
});
$unit = $id ? ($q('SELECT * FROM unidades WHERE id = ? AND ativo = 1')([$id])[0] ?? null) : null;
if (!$unit) {
    http_response_code(404);
    echo '<!doctype html><title>Unidade não encontrada</title><p>Unidade não encontrada.</p>';
    exit;
}
$hours = $q('SELECT dia_semana, abre, fecha FROM unidade_horarios WHERE unidade_id = ? ORDER BY dia_semana, abre')([$id]);
$plans = $q('SELECT p.id, p.nome, p.descricao, p.preco_centavos, p.periodicidade FROM planos p
    JOIN planos_unidades pu ON pu.plano_id = p.id WHERE pu.unidade_id = ? AND p.ativo = 1 ORDER BY p.ordem, p.id')([$id]);
$areas = $q('SELECT a.nome FROM areas a JOIN unidades_areas ua ON ua.area_id = a.id
    WHERE ua.unidade_id = ? AND a.ativo = 1 ORDER BY a.nome')([$id]);
$mods = $q('SELECT m.nome FROM modalidades m JOIN unidades_modalidades um ON um.modalidade_id = m.id
    WHERE um.unidade_id = ? AND m.ativo = 1 ORDER BY m.nome')([$id]);
$classes = $q('SELECT a.dia_semana, a.inicio, a.fim, m.nome AS modalidade, a.professor, a.sala FROM aulas a
    JOIN modalidades m ON m.id = a.modalidade_id WHERE a.unidade_id = ? AND m.ativo = 1
    ORDER BY a.dia_semana, a.inicio, m.nome')([$id]);
$days = ['Domingo', 'Segunda', 'Terça', 'Quarta', 'Quinta', 'Sexta', 'Sábado'];
$period = ['mensal' => 'por mês', 'trimestral' => 'por trimestre', 'semestral' => 'por semestre', 'anual' => 'por ano'];
$price = fn ($c) => 'R$ ' . number_format($c / 100, 2, ',', '.');
header('Content-Type: text/html; charset=utf-8');
?><!doctype html>
<html lang="pt-BR"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title><?= e($unit['nome']) ?> — Academia</title>
<meta name="description" content="<?= e($unit['descricao']) ?>">
<link rel="stylesheet" href="/assets/site.css"></head>
<body><header class="site-header"><a href="/">Academia</a> <a href="/unidades">Unidades</a></header>
<main><h1><?= e($unit['nome']) ?></h1>
<p class="address"><?= e($unit['endereco']) ?>, <?= e($unit['bairro']) ?>, <?= e($unit['cidade']) ?> - <?= e($unit['uf']) ?></p>
<?php if ($unit['telefone']): ?><p>Telefone: <a href="tel:<?= e($unit['telefone']) ?>"><?= e($unit['telefone']) ?></a></p><?php endif ?>
<?php if ($unit['descricao']): ?><p><?= e($unit['descricao']) ?></p><?php endif ?>
<section><h2>Horário de funcionamento</h2><dl>
<?php foreach ($hours as $h): ?><dt><?= $days[$h['dia_semana']] ?></dt><dd><?= e($h['abre']) ?>–<?= e($h['fecha']) ?></dd>
<?php endforeach ?></dl></section>
<section><h2>Planos</h2><ul class="plans">
<?php foreach ($plans as $p): ?><li><h3><?= e($p['nome']) ?></h3><p><?= e($p['descricao']) ?></p>
<p class="price"><?= $price($p['preco_centavos']) ?> <?= $period[$p['periodicidade']] ?? '' ?></p></li>
<?php endforeach ?></ul></section>
<section><h2>Estrutura</h2><ul><?php foreach ($areas as $a): ?><li><?= e($a['nome']) ?></li><?php endforeach ?></ul>
<h2>Modalidades</h2><ul><?php foreach ($mods as $m): ?><li><?= e($m['nome']) ?></li><?php endforeach ?></ul></section>
<section><h2>Grade de aulas</h2>
<?php foreach (range(0, 6) as $d): ?><h3><?= $days[$d] ?></h3><table><thead><tr><th>Horário</th><th>Aula</th><th>Professor</th><th>Sala</th></tr></thead><tbody>
<?php foreach ($classes as $c): if ((int) $c['dia_semana'] !== $d) continue; ?><tr><td><?= e($c['inicio']) ?>–<?= e($c['fim']) ?></td><td><?= e($c['modalidade']) ?></td><td><?= e($c['professor']) ?></td><td><?= e($c['sala']) ?></td></tr>
<?php endforeach ?></tbody></table>
<?php endforeach ?></section>
<p><a href="/pages/Pass/index.php?id=<?= (int) $unit['id'] ?>">Acesso por benefício</a></p>
</main><footer>Academia</footer></body></html>
