//! Las órdenes de quien aprende: una función corta por orden. La lógica vive
//! en [`curso::practica`]; aquí solo se elige el ejercicio y se escribe.

use std::io::{BufRead, Write};
use std::path::Path;

use curso::practica::{self, Estado, Practica};
use curso::{Curso, Error, libro, servidor};

use curso::modelo::Ejercicio;

pub fn lista(curso: &Curso) -> Result<(), Error> {
    let practica = Practica::abrir(curso);
    print!("{}", practica.listado(true));
    match practica.siguiente() {
        Some(e) => println!("Siguiente (← en la lista): cargo curso verifica {}", e.nombre),
        None => println!("¡Has terminado todos los ejercicios!"),
    }
    Ok(())
}

pub fn verifica(curso: &Curso, nombre: Option<&str>) -> Result<(), Error> {
    let mut practica = Practica::abrir(curso);
    let Some(e) = elegir(&practica, nombre)? else {
        println!("¡Has terminado todos los ejercicios! Míralos con `cargo curso lista`.");
        return Ok(());
    };
    let r = practica::probar(curso, e)?;
    practica.anotar(&[(e, r.paso)])?;
    print!("{}", r.informe);
    if let Some(aviso) = requisitos_pendientes(&practica, e) {
        println!("\n{aviso}");
    }
    if !r.paso {
        if r.vecinos.is_empty() {
            print!("{}", ofrecer_pista(&mut practica, e)?);
        }
        println!("La salida entera: {}", practica::SALIDA_COMPLETA);
        return Err(Error::mensaje(format!("«{}» todavía no pasa sus pruebas", e.nombre)));
    }
    println!("{}", tras_superar(&practica, e));
    Ok(())
}

/// Si `e` usa otros ejercicios de su capítulo (`requiere`) que aún no has
/// superado, qué resolver antes.
pub fn requisitos_pendientes(practica: &Practica, e: &Ejercicio) -> Option<String> {
    let pendientes: Vec<String> = e
        .requiere
        .iter()
        .filter_map(|n| practica.curso.ejercicio(n))
        .filter(|o| practica.estado(o) != Estado::Hecho)
        .map(|o| format!("«{}»", o.nombre))
        .collect();
    (!pendientes.is_empty()).then(|| {
        format!(
            "Ojo: «{}» usa lo que haces en {}, que aún no has superado. Resuélvelo antes: cargo curso verifica {}",
            e.nombre,
            pendientes.join(", "),
            pendientes[0].trim_matches(['«', '»'])
        )
    })
}

/// Tras superar `e`: el siguiente ejercicio de su capítulo o, si no quedan,
/// el del capítulo que viene.
pub fn tras_superar(practica: &Practica, e: &Ejercicio) -> String {
    match practica.siguiente() {
        Some(s) if s.capitulo == e.capitulo => {
            format!("Siguiente, en este capítulo: «{}» ({}). cargo curso verifica {}", s.nombre, s.titulo, s.nombre)
        }
        Some(s) => format!(
            "Has terminado los ejercicios del capítulo {}. Siguiente: «{}» ({}), del capítulo {}. cargo curso verifica {}",
            e.numero(),
            s.nombre,
            s.titulo,
            s.capitulo,
            s.nombre
        ),
        None => "¡Has terminado todos los ejercicios!".to_string(),
    }
}

/// Tras un fallo: la primera pista (y la anota como vista) y cómo pedir la
/// siguiente.
pub fn ofrecer_pista(practica: &mut Practica, e: &Ejercicio) -> Result<String, Error> {
    let Some(primera) = e.pistas.first() else { return Ok(String::new()) };
    practica.ver_pistas(e, 1)?;
    let quedan = e.pistas.len() - practica.pistas_vistas(e);
    let mut t = format!("\nPista: {primera}\n");
    if quedan > 0 {
        t.push_str(&format!("¿Otra pista? cargo curso pista {} ({})\n", e.nombre, quedan_texto(quedan)));
    }
    Ok(t)
}

fn quedan_texto(quedan: usize) -> String {
    if quedan == 1 { "queda 1".to_string() } else { format!("quedan {quedan}") }
}

pub fn verifica_todos(curso: &Curso) -> Result<(), Error> {
    let resultados = practica::probar_todos(curso, |capitulo| eprintln!("… capítulo {capitulo}"))?;
    let mut practica = Practica::abrir(curso);
    practica.anotar(&resultados)?;
    print!("{}", practica.listado(true));
    Ok(())
}

pub fn pista(curso: &Curso, nombre: Option<&str>, todas: bool) -> Result<(), Error> {
    let mut practica = Practica::abrir(curso);
    let Some(e) = elegir(&practica, nombre)? else {
        return Err(Error::mensaje("no te queda ningún ejercicio pendiente; di cuál: cargo curso pista NOMBRE"));
    };
    print!("{}", siguiente_pista(&mut practica, e, todas)?);
    Ok(())
}

/// La siguiente pista que no has visto de `e` (y la anota), o todas con
/// `todas`. Dice cuántas quedan.
pub fn siguiente_pista(practica: &mut Practica, e: &Ejercicio, todas: bool) -> Result<String, Error> {
    let total = e.pistas.len();
    let mut t = format!("{} — {}\nArchivo: {}\n", e.nombre, e.titulo, e.ruta().display());
    if todas {
        for (i, pista) in e.pistas.iter().enumerate() {
            t.push_str(&format!("Pista {} de {total}: {pista}\n", i + 1));
        }
        practica.ver_pistas(e, total)?;
        return Ok(t);
    }
    let vistas = practica.pistas_vistas(e);
    if vistas >= total {
        let ultima = e.pistas.last().map(String::as_str).unwrap_or_default();
        t.push_str(&format!("Pista {total} de {total} (ya la habías visto): {ultima}\n"));
        t.push_str(&format!(
            "No hay más pistas. Repásalas con `cargo curso pista {} --todas`; la solución se desbloquea al superarlo.\n",
            e.nombre
        ));
        return Ok(t);
    }
    t.push_str(&format!("Pista {} de {total}: {}\n", vistas + 1, e.pistas[vistas]));
    practica.ver_pistas(e, vistas + 1)?;
    let quedan = total - vistas - 1;
    if quedan > 0 {
        t.push_str(&format!("Si la necesitas, {}: cargo curso pista {}\n", quedan_texto(quedan), e.nombre));
    } else {
        t.push_str("Era la última pista.\n");
    }
    Ok(t)
}

pub fn solucion(curso: &Curso, nombre: &str, mostrar: bool) -> Result<(), Error> {
    let e = practica::buscar(curso, nombre)?;
    if Practica::abrir(curso).estado(e) != Estado::Hecho && !mostrar {
        return Err(Error::mensaje(format!(
            "todavía no has superado «{n}». Prueba antes `cargo curso pista {n}`; si aun así quieres \
             verla: cargo curso solucion {n} --mostrar",
            n = e.nombre
        )));
    }
    println!("La solución de «{}» está en {}", e.nombre, e.carpeta_solucion().join(&e.archivo).display());
    println!("Ejecútala:        cargo run -p {}", e.paquete_solucion());
    println!("Sus pruebas:      cargo test -p {}", e.paquete_solucion());
    if !e.incorrectas.is_empty() {
        println!(
            "Respuestas que parecen buenas pero no lo son ({}, cada una un parche sobre la solución con lo que \
             tiene de malo): {}/",
            e.incorrectas.len(),
            e.carpeta_solucion().join(e.carpeta_incorrectas()).display()
        );
    }
    Ok(())
}

pub fn reinicia(curso: &Curso, nombre: &str, si: bool) -> Result<(), Error> {
    let e = practica::buscar(curso, nombre)?;
    let Some(copia) = practica::copia_para_reiniciar(curso, e)? else {
        println!("«{}» ya tiene su código inicial; no hay nada que reiniciar.", e.nombre);
        return Ok(());
    };
    let relativa = copia.strip_prefix(&curso.raiz).unwrap_or(&copia).display().to_string();
    let pregunta = format!("¿Devuelvo «{}» a su código inicial? Tu versión se guardará en {relativa}.", e.nombre);
    if !si && !confirmar(&pregunta) {
        println!("No he cambiado nada.");
        return Ok(());
    }
    practica::reiniciar(curso, e, &copia)?;
    println!("«{}» vuelve a su código inicial. Tu versión está en {relativa}.", e.nombre);
    Ok(())
}

pub fn libro(raiz: &Path, solo_construir: bool, puerto: u16, destino: Option<&Path>) -> Result<(), Error> {
    let opciones = libro::Opciones {
        destino: destino.map(Path::to_path_buf),
        recarga: (!solo_construir).then(|| servidor::RECARGA.to_string()),
        ..libro::Opciones::default()
    };
    let hecho = libro::construir_con(raiz, &opciones)?;
    if hecho.errores + hecho.avisos > 0 {
        return Err(Error::mensaje(format!(
            "el libro se construyó con {} errores y {} avisos (arriba los tienes)",
            hecho.errores, hecho.avisos
        )));
    }
    println!("Libro construido en {}", hecho.destino.display());
    if solo_construir {
        return Ok(());
    }
    println!("Este terminal queda ocupado sirviendo el libro; para pararlo, pulsa Ctrl+C.");
    servidor::servir_en_vivo(raiz, &hecho.destino, puerto, libro::reconstruir_en_vivo(raiz, &hecho.destino))
}

/// El ejercicio que se nombra o, sin nombre, el siguiente pendiente
/// (`None` si ya no queda ninguno).
pub fn elegir<'a>(practica: &Practica<'a>, nombre: Option<&str>) -> Result<Option<&'a Ejercicio>, Error> {
    match nombre {
        Some(n) => practica::buscar(practica.curso, n).map(Some),
        None => Ok(practica.siguiente()),
    }
}

/// Pregunta sí o no; sin respuesta (fin de la entrada), es que no.
pub fn confirmar(pregunta: &str) -> bool {
    print!("{pregunta} [s/N] ");
    let _ = std::io::stdout().flush();
    let mut linea = String::new();
    match std::io::stdin().lock().read_line(&mut linea) {
        Ok(0) | Err(_) => {
            println!();
            false
        }
        Ok(_) => matches!(linea.trim().to_lowercase().as_str(), "s" | "si" | "sí" | "y" | "yes"),
    }
}
