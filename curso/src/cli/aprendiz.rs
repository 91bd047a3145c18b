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
        Some(e) => println!("Siguiente: cargo curso verifica {}", e.nombre),
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
    if !r.paso {
        return Err(Error::mensaje(format!("«{}» todavía no pasa sus pruebas", e.nombre)));
    }
    match practica.siguiente() {
        Some(s) => println!("Siguiente: «{}» ({}).", s.nombre, s.titulo),
        None => println!("¡Has terminado todos los ejercicios!"),
    }
    Ok(())
}

pub fn verifica_todos(curso: &Curso) -> Result<(), Error> {
    let resultados = practica::probar_todos(curso, |capitulo| eprintln!("… capítulo {capitulo}"))?;
    let mut practica = Practica::abrir(curso);
    practica.anotar(&resultados)?;
    print!("{}", practica.listado(true));
    Ok(())
}

pub fn pista(curso: &Curso, nombre: Option<&str>) -> Result<(), Error> {
    match elegir(&Practica::abrir(curso), nombre)? {
        Some(e) => {
            mostrar_pistas(e);
            Ok(())
        }
        None => Err(Error::mensaje("no te queda ningún ejercicio pendiente; di cuál: cargo curso pista NOMBRE")),
    }
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
        let rutas: Vec<String> =
            e.incorrectas.iter().map(|i| e.carpeta_solucion().join(i).display().to_string()).collect();
        println!("Respuestas que parecen buenas pero no lo son: {}", rutas.join(", "));
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

pub fn mostrar_pistas(e: &Ejercicio) {
    println!("{} — {}", e.nombre, e.titulo);
    println!("Archivo: {}", e.ruta().display());
    for (i, pista) in e.pistas.iter().enumerate() {
        println!("Pista {}: {pista}", i + 1);
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
