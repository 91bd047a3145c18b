//! Las órdenes que miden: `ciclo`, `mide` y `graficas`.

use std::path::Path;

use curso::{Curso, Error};

use super::{Reescritura, contar_cambios, permitir};

pub fn ciclo(raiz: &Path, sin_frio: bool) -> Result<(), Error> {
    let (medidas, costes) = curso::ciclo::medir(raiz, !sin_frio, |paso| eprintln!("… {paso}"))?;
    println!("| medida | segundos | objetivo |\n|---|---|---|");
    for m in &medidas {
        let marca = if m.segundos <= m.objetivo { "✔" } else { "✘" };
        println!("| {} | {} | {marca} < {} |", m.que, medidas::numero(m.segundos, 2), m.objetivo);
    }
    if costes.is_empty() {
        return Ok(());
    }
    println!("\n| dependencia directa | la usan | paquetes que solo trae ella | segundos de compilación (CPU) |");
    println!("|---|---|---|---|");
    for c in &costes {
        let usan =
            if c.usada_por.len() > 3 { format!("{} paquetes", c.usada_por.len()) } else { c.usada_por.join(", ") };
        println!("| {} | {usan} | {} | {} |", c.dependencia, c.paquetes, medidas::numero(c.segundos, 1));
    }
    Ok(())
}

/// Lo que reescribe una medición completa: los CSV de las lecciones y las gráficas.
const RESULTADOS: &[&str] = &["lessons/*/resultados", "book/graficas"];

pub fn mide(raiz: &Path, rapido: bool, capitulo: Option<&str>, r: Reescritura) -> Result<(), Error> {
    if !rapido && !permitir(raiz, RESULTADOS, "reescribir los resultados y las gráficas del libro", r)? {
        return Ok(());
    }
    let m = curso::mediciones::medir(&Curso::cargar(raiz)?, rapido, capitulo, |paso| eprintln!("… {paso}"))?;
    println!("| orden | segundos | bien |\n|---|---|---|");
    for e in &m.ordenes {
        println!("| `{}` | {} | {} |", e.ejecutada, medidas::numero(e.segundos, 1), if e.correcta { "✔" } else { "✘" });
    }
    println!();
    for d in m.datos.iter().filter(|d| d.aqui.is_some()) {
        println!(
            "{} (en el libro: {})\n    aquí: {}",
            d.que,
            d.referencia.join(", "),
            d.aqui.as_deref().unwrap_or_default()
        );
    }
    println!(
        "\nResultados en target/mediciones/{}/resultados.json ({} s en total).",
        m.modo,
        medidas::numero(m.segundos, 0)
    );
    if !m.problemas.is_empty() {
        let lista: Vec<String> = m.problemas.iter().map(|p| p.to_string()).collect();
        return Err(Error::mensaje(format!("{} problemas:\n- {}", lista.len(), lista.join("\n- "))));
    }
    if !rapido {
        contar_cambios(raiz, RESULTADOS)?;
    }
    Ok(())
}

pub fn graficas(raiz: &Path, r: Reescritura) -> Result<(), Error> {
    if !permitir(raiz, &["book/graficas"], "volver a dibujar las gráficas de book/graficas/", r)? {
        return Ok(());
    }
    let hechas = curso::mediciones::dibujar(&Curso::cargar(raiz)?, None, |paso| eprintln!("… {paso}"))?;
    println!("Dibujadas {} gráficas.", hechas.len());
    contar_cambios(raiz, &["book/graficas"])
}
